// Kysely against the server: the migration (Migrator), gen_ulid() default, ulid/ulid[]/NULL, a join through the
// ulid foreign key, a bulk insert, a time range, errors.
import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import { BAD, BULK_ROWS, Checks, KNOWN, KNOWN_LOWER_ALIAS, MAX, RANGE_COUNT, RANGE_HI, RANGE_LO, RANGE_ROWS_SQL,
  bulkIds } from './checks.js';
import { connect, migrate } from './kysely_ulid.js';

const c = new Checks('kysely');
const recipe = execFileSync(process.execPath, ['kysely_ulid.js'], { encoding: 'utf8' });
c.equal('the recipe migrates, inserts and finds the row in the last hour', recipe, '26 true\n');

const db = await connect();
await c.run('checks', async () => {
  c.equal('migrateToLatest again: nothing to do', await migrate(db), []);
  const row = await db.insertInto('events').values({ what: 'default' }).returningAll().executeTakeFirstOrThrow();
  c.isUlid('insert: id from DEFAULT gen_ulid() is a string (RETURNING)', row.id);
  c.equal('insert: NULL parent_id and tags read as null', [row.parent_id, row.tags], [null, null]);
  await db.insertInto('events').values({ id: KNOWN_LOWER_ALIAS, parent_id: row.id, tags: [KNOWN, null, MAX], what: 'given' })
    .execute();
  const given = await db.selectFrom('events as e').innerJoin('events as p', 'p.id', 'e.parent_id')
    .select(['e.id', 'e.tags', 'p.id as parent', 'p.what as parent_what']).where('e.id', '=', KNOWN).executeTakeFirstOrThrow();
  c.equal('a given id (lower case, l for 1) found by its canonical string, its parent by a join on the foreign key',
    [given.id, given.parent, given.parent_what], [KNOWN, row.id, 'default']);
  c.equal('ulid[] read as an array (registerUlid), NULL element as null', given.tags, [KNOWN, null, MAX]);
  c.equal('where id = the lower-case alias; where tags @> an array parameter',
    [(await db.selectFrom('events').select('id').where('id', '=', KNOWN_LOWER_ALIAS).executeTakeFirst())?.id,
      (await db.selectFrom('events').select('id').where('tags', '@>', sql`${[MAX]}::ulid[]`).execute()).map((e) => e.id)],
    [KNOWN, [KNOWN]]);

  const ids = bulkIds();
  await db.insertInto('events').values(ids.map((id) => ({ id, what: 'bulk' }))).execute();
  const bulk = await db.selectFrom('events').select('id').where('what', '=', 'bulk').orderBy('id').execute();
  c.equal(`bulk insert of ${BULK_ROWS} rows in one statement: the same ids in id order`, bulk.map((e) => e.id), [...ids].sort());

  await sql`INSERT INTO events (id, what) SELECT id, 'range' FROM (${sql.raw(RANGE_ROWS_SQL)}) r`.execute(db);
  const range = await db.selectFrom('events').select(sql`ulid_to_timestamp(id)`.as('ts')).where('what', '=', 'range')
    .where('id', '>=', sql`ulid_min(${RANGE_LO})`).where('id', '<=', sql`ulid_max(${RANGE_HI})`).orderBy('id').execute();
  c.equal('time range with ulid_min/ulid_max and Date parameters', range.length, RANGE_COUNT);
  c.equal('time range: first and last row on the bounds', [range[0].ts, range.at(-1).ts], [RANGE_LO, RANGE_HI]);

  await c.badString('bad string: insert (Kysely passes node-postgres\'s error through)',
    () => db.insertInto('events').values({ id: BAD, what: 'bad' }).execute());
  await c.badString('bad string: where id =', () => db.selectFrom('events').selectAll().where('id', '=', BAD).execute());
});
await db.destroy();
c.exit();
