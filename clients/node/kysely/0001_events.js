// Kysely migration: events keyed by ulid (gen_ulid() on the server), a ulid foreign key, ulid[].
import { sql } from 'kysely';

export async function up(db) {
  await sql`CREATE EXTENSION IF NOT EXISTS ulid`.execute(db);
  await db.schema.createTable('events')
    .addColumn('id', sql`ulid`, (col) => col.primaryKey().defaultTo(sql`gen_ulid()`))
    .addColumn('parent_id', sql`ulid`, (col) => col.references('events.id'))
    .addColumn('tags', sql`ulid[]`)
    .addColumn('what', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db) {
  await db.schema.dropTable('events').execute();
}
