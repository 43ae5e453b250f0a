// Drizzle ORM against the server: drizzle-kit's migration, gen_ulid() default, ulid/ulid[]/NULL, bulk insert,
// time range, errors.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, between, eq, isNull, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { BAD, BULK_ROWS, Checks, KNOWN, KNOWN_LOWER_ALIAS, MAX, RANGE_COUNT, RANGE_HI, RANGE_LO, bulkIds }
  from './checks.js';
import { events } from './drizzle/schema.js';
import { registerUlid } from './pg_ulid.js';

const c = new Checks('drizzle');
const migrationSql = (dir) => readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()
  .map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');

// drizzle-kit makes the committed migration from the schema
const out = mkdtempSync(join(tmpdir(), 'drizzle-'));
writeFileSync(join(out, 'config.js'),
  `export default { dialect: 'postgresql', schema: '${join(process.cwd(), 'drizzle/schema.js')}', out: '${out}/m' };\n`);
execFileSync('node_modules/.bin/drizzle-kit', ['generate', '--name', 'init', '--config', join(out, 'config.js')],
  { stdio: 'ignore' });
c.equal('drizzle-kit generate from the schema gives the committed migration', migrationSql(join(out, 'm')),
  migrationSql('drizzle/migrations'));
rmSync(out, { recursive: true, force: true });

const recipe = execFileSync(process.execPath, ['drizzle_ulid.js'], { encoding: 'utf8' });
c.equal('the recipe migrates, inserts and finds the row in the last hour', recipe, '26 true\n');

const pool = new pg.Pool({ max: 1 });
const db = drizzle(pool);
await c.run('checks', async () => {
  const [row] = await db.insert(events).values({ what: 'default' }).returning();
  c.isUlid('insert: id from DEFAULT gen_ulid() is a string', row.id);
  c.equal('insert: NULL parent and tags read as null', [row.parent, row.tags], [null, null]);
  const [given] = await db.insert(events)
    .values({ id: KNOWN_LOWER_ALIAS, parent: row.id, tags: [KNOWN, null, MAX], what: 'given' }).returning();
  c.equal('insert of a given id (lower case, l for 1), parent, ulid[] tags',
    [given.id, given.parent], [KNOWN, row.id]);
  // Drizzle's own array-literal parser reads a NULL element as the string 'NULL' (documented in docs/clients-node.md; this
  // fails once Drizzle reads it as null); node-postgres's parser (registerUlid) gets it right
  c.equal('ulid[] without registerUlid: Drizzle reads a NULL element as "NULL"', given.tags, [KNOWN, 'NULL', MAX]);
  await registerUlid(pool);
  const [again] = await db.select({ tags: events.tags }).from(events).where(eq(events.id, KNOWN));
  c.equal('ulid[] with registerUlid (node-postgres recipe): an array, NULL element as null', again.tags,
    [KNOWN, null, MAX]);
  const found = await db.select().from(events).where(eq(events.id, KNOWN));
  c.equal('select where id = a string', found.map((e) => e.what), ['given']);
  c.equal('select where parent IS NULL', (await db.select().from(events).where(isNull(events.parent))).length >= 1, true);

  const ids = bulkIds();
  await db.insert(events).values(ids.map((id) => ({ id, what: 'bulk' })));
  const back = await db.select({ id: events.id }).from(events).where(eq(events.what, 'bulk')).orderBy(asc(events.id));
  c.equal(`bulk insert of ${BULK_ROWS} rows in one statement: the same ids in id order`, back.map((e) => e.id),
    [...ids].sort());

  await db.execute(sql`INSERT INTO events (id, what)
    SELECT gen_ulid(TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL '1 hour'), 'range' FROM generate_series(0, 47) AS i`);
  const inRange = await db.select({ id: events.id, ts: sql`ulid_to_timestamp(${events.id})`.mapWith(String) })
    .from(events).where(and(eq(events.what, 'range'),
      between(events.id, sql`ulid_min(${RANGE_LO})`, sql`ulid_max(${RANGE_HI})`))).orderBy(asc(events.id));
  c.equal('time range with ulid_min/ulid_max and Date parameters', inRange.length, RANGE_COUNT);
  c.equal('time range: first and last row on the bounds', [inRange[0].ts, inRange.at(-1).ts].map((t) => new Date(t)),
    [RANGE_LO, RANGE_HI]);

  await c.badString('bad string: insert', async () => {
    try {
      await db.insert(events).values({ id: BAD, what: 'bad' });
    } catch (e) {
      throw e.cause ?? e; // DrizzleQueryError wraps node-postgres's DatabaseError
    }
  });
});
await pool.end();
c.exit();
