// Drizzle ORM: migrate (drizzle-kit's migration), insert with the server's gen_ulid(), query a time range.
import { between, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { events } from './drizzle/schema.js';

const pool = new pg.Pool(); // PG* environment variables
const db = drizzle(pool);
await migrate(db, { migrationsFolder: './drizzle/migrations' });
const [row] = await db.insert(events).values({ what: 'signup' }).returning();
const lastHour = await db.select().from(events).where(between(events.id,
  sql`ulid_min(${new Date(Date.now() - 3600e3)})`, sql`ulid_max(${new Date()})`));
console.log(row.id.length, lastHour.some((e) => e.id === row.id)); // 26 true
await pool.end();
