// Kysely: ulid columns are strings; the migration names the type with sql`ulid`, the server
// generates the key. registerUlid (node-postgres recipe) gives ulid[] as an array.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileMigrationProvider, Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { registerUlid } from './pg_ulid.js';

export async function connect() {
  const pool = new pg.Pool(); // PG* environment variables
  await registerUlid(pool);
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
}

export async function migrate(db) {
  const migrationFolder = path.join(path.dirname(new URL(import.meta.url).pathname), 'kysely');
  const { error, results } = await new Migrator({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder }) })
    .migrateToLatest();
  if (error) throw error;
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const db = await connect();
  await migrate(db);
  const { id } = await db.insertInto('events').values({ what: 'signup' }).returning('id').executeTakeFirstOrThrow();
  const lastHour = await db.selectFrom('events').select('id')
    .where('id', '>=', sql`ulid_min(${new Date(Date.now() - 3600e3)})`)
    .where('id', '<=', sql`ulid_max(${new Date()})`).execute();
  console.log(id.length, lastHour.some((e) => e.id === id)); // 26 true
  await db.destroy();
}
