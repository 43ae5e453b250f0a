// Prisma against the server: the CLI offline (generate, migrate deploy), why Unsupported("ulid") cannot be
// the key, the migration, Prisma Client with the pg adapter: gen_ulid() default, ulid/ulid[]/NULL, relations,
// createMany, a time range, errors.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BAD, BULK_ROWS, Checks, KNOWN, KNOWN_LOWER_ALIAS, MAX, RANGE_COUNT, RANGE_HI, RANGE_LO, RANGE_ROWS_SQL,
  bulkIds } from './checks.js';

const c = new Checks('prisma');
// the CLI (four runs at once: each spends seconds starting); no network here: getaddrinfo fails at once
const prismaCli = (args, env = {}) => new Promise((resolve) => {
  execFile('node_modules/.bin/prisma', args, { env: { ...process.env, CHECKPOINT_DISABLE: '1', ...env } },
    (error, stdout, stderr) => resolve({ status: error ? error.code : 0, out: `${stdout}${stderr}` }));
});
const NO_ENGINE = { PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false' }; // any existing file: generate never runs it
const tmp = mkdtempSync(join(tmpdir(), 'prisma-'));
writeFileSync(join(tmp, 'schema.prisma'), `datasource db {\n  provider = "postgresql"\n}\n
model Event {\n  id   Unsupported("ulid") @id @default(dbgenerated("gen_ulid()"))\n  what String\n}\n`);
const [generate, deploy, gen, unsupported] = await Promise.all([prismaCli(['generate']), prismaCli(['migrate', 'deploy']),
  prismaCli(['generate'], NO_ENGINE), prismaCli(['validate', '--schema', join(tmp, 'schema.prisma')], NO_ENGINE)]);
rmSync(tmp, { recursive: true, force: true });
const ENGINE_DOWNLOAD = /request to https:\/\/binaries\.prisma\.sh\/\S+\/schema-engine(\.gz)?\.sha256 failed/;
for (const [what, r] of [['prisma generate', generate], ['prisma migrate deploy', deploy]]) {
  if (r.status !== 0 && ENGINE_DOWNLOAD.test(r.out)) c.ok(`${what} fails offline: it first fetches the schema engine (${r.out.match(ENGINE_DOWNLOAD)[0]})`);
  else if (r.status === 0) c.note(`${what} succeeded: the schema engine was downloaded (not offline)`);
  else c.bad(`${what}: exit ${r.status}: ${r.out}`);
}
c.equal('prisma generate with PRISMA_SCHEMA_ENGINE_BINARY=/bin/false writes prisma/generated', [gen.status,
  /Generated Prisma Client \(v7\.10\.1\) to \.\/prisma\/generated/.test(gen.out)], [0, true]);
if (gen.status !== 0) c.note(gen.out);
// the key as Unsupported("ulid"): Prisma refuses the model (such fields are optional and left out of the client)
c.equal('an Unsupported("ulid") @id: P1012, the id is no unique criterion',
  [unsupported.status !== 0, unsupported.out.includes('P1012'), unsupported.out.includes(
    'The following unique criterias were not considered as they contain fields that are not required:\n- id')], [true, true, true]);
if (unsupported.status === 0) c.note(unsupported.out);

// the migration, applied as prisma migrate deploy would, through node-postgres
const pool = new pg.Pool({ max: 1 });
const [{ schema }] = (await pool.query('SELECT current_schema() AS schema')).rows; // client_prisma
await pool.query(readFileSync('prisma/migrations/20240101000000_init/migration.sql', 'utf8'));
await pool.end();
const recipe = spawnSync(process.execPath, ['prisma_ulid.js'], { encoding: 'utf8', env: { ...process.env, PRISMA_SCHEMA: schema } });
c.equal('the recipe creates and finds the row in the last hour', `${recipe.stdout}${recipe.stderr}`, '26 true\n');

const { connect, ulidRange } = await import('./prisma_ulid.js');
const prisma = await connect(schema);
await c.run('checks', async () => {
  const row = await prisma.event.create({ data: { what: 'default' } });
  c.isUlid('create: id from DEFAULT gen_ulid() is a string', row.id);
  c.equal('create: NULL parentId reads as null, no tags as []', [row.parentId, row.tags], [null, []]);
  const given = await prisma.event.create({ data: { id: KNOWN_LOWER_ALIAS, parentId: row.id, tags: [KNOWN, MAX], what: 'given' } });
  c.equal('create with a given id (lower case, l for 1): RETURNING gives the canonical string', given.id, KNOWN);
  const found = await prisma.event.findUnique({ where: { id: KNOWN }, include: { parent: true } });
  c.equal('findUnique by string id, include the parent (ulid foreign key)', [found.what, found.parent.id], ['given', row.id]);
  c.equal('ulid[] as String[] (registerUlid)', found.tags, [KNOWN, MAX]);
  c.equal('relation the other way: include children; where tags has',
    [(await prisma.event.findUnique({ where: { id: row.id }, include: { children: true } })).children.map((e) => e.id),
      (await prisma.event.findMany({ where: { tags: { has: MAX } } })).map((e) => e.id)], [[KNOWN], [KNOWN]]);
  c.equal('findUnique by the lower-case alias', (await prisma.event.findUnique({ where: { id: KNOWN_LOWER_ALIAS } }))?.id, KNOWN);
  c.equal('connect a relation by string id', (await prisma.event.create({ data: { what: 'child', parent: { connect: { id: KNOWN } } } }))
    .parentId, KNOWN);

  const ids = bulkIds();
  c.equal(`createMany of ${BULK_ROWS} rows`, (await prisma.event.createMany({ data: ids.map((id) => ({ id, what: 'bulk' })) })).count,
    BULK_ROWS);
  const bulk = await prisma.event.findMany({ select: { id: true }, where: { what: 'bulk' }, orderBy: { id: 'asc' } });
  c.equal('createMany: the same ids in id order (the server\'s order)', bulk.map((e) => e.id), [...ids].sort());
  const made = await prisma.event.createManyAndReturn({ data: Array.from({ length: 100 }, () => ({ what: 'bulk default' })) });
  c.equal('createManyAndReturn without ids: 100 distinct gen_ulid() ids', new Set(made.map((e) => e.id)).size, 100);

  await prisma.$executeRawUnsafe(`INSERT INTO "${schema}".events (id, what) SELECT id, 'range' FROM (${RANGE_ROWS_SQL}) r`);
  const range = await prisma.event.findMany({ where: { what: 'range', id: await ulidRange(prisma, RANGE_LO, RANGE_HI) },
    orderBy: { id: 'asc' } });
  c.equal('time range: where id gte ulid_min/lte ulid_max (bounds from $queryRaw), Date parameters', range.length, RANGE_COUNT);
  const ts = await prisma.$queryRaw`SELECT ulid_to_timestamp(id) AS ts FROM events WHERE id = ${range[0].id} OR id = ${range.at(-1).id}
    ORDER BY id`;
  c.equal('time range: first and last row on the bounds', ts.map((r) => r.ts), [RANGE_LO, RANGE_HI]);

  const badString = async (what, fn) => {
    try {
      await fn();
      c.bad(`${what}: no error`);
    } catch (e) {
      const cause = e.meta?.driverAdapterError?.cause;
      c.equal(`${what}: ${e.constructor.name} ${e.code}, the driver adapter's cause 22P02`,
        [e.code, cause?.originalCode, cause?.originalMessage], ['P2007', '22P02', `invalid input syntax for type ulid: "${BAD}"`]);
    }
  };
  await badString('bad string: create', () => prisma.event.create({ data: { id: BAD, what: 'bad' } }));
  await badString('bad string: findUnique', () => prisma.event.findUnique({ where: { id: BAD } }));
});
await prisma.$disconnect();
c.exit();
