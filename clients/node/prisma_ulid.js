// Prisma 7 with the pg driver adapter: ulid columns as String fields. node-postgres sends the strings
// untyped, so the server reads them as ulid; registerUlid (node-postgres recipe) turns ulid[] into the
// array Prisma expects for String[]. Prisma qualifies every table with the adapter's schema (public
// unless given), whatever the search_path.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { registerUlid } from './pg_ulid.js';
import prismaClient from './prisma/generated/index.js'; // `prisma generate` writes it

export async function connect(schema = 'public') {
  const pool = new pg.Pool(); // PG* environment variables
  await registerUlid(pool);
  return new prismaClient.PrismaClient({ adapter: new PrismaPg(pool, { schema, disposeExternalPool: true }) });
}

// ulid_min(from) and ulid_max(to) from the server, for a where: { id: { gte, lte } } on a String id
export async function ulidRange(prisma, from, to) {
  const [{ gte, lte }] = await prisma.$queryRaw`SELECT ulid_min(${from})::text AS gte, ulid_max(${to})::text AS lte`;
  return { gte, lte };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const prisma = await connect(process.env.PRISMA_SCHEMA); // the table's schema (the clients suite: its own)
  const event = await prisma.event.create({ data: { what: 'signup' } }); // id from gen_ulid()
  const lastHour = await prisma.event.findMany({
    where: { id: await ulidRange(prisma, new Date(Date.now() - 3600e3), new Date()) } });
  console.log(event.id.length, lastHour.some((e) => e.id === event.id)); // 26 true
  await prisma.$disconnect();
}
