// TypeORM against the server: schema sync (and a second sync that changes nothing), gen_ulid() default,
// ulid/ulid[]/NULL, a many-to-one relation, a bulk insert, a time range, errors.
import { execFileSync } from 'node:child_process';
import { DataSource } from 'typeorm';
import { BAD, BULK_ROWS, Checks, KNOWN, KNOWN_LOWER_ALIAS, MAX, RANGE_COUNT, RANGE_HI, RANGE_LO, RANGE_ROWS_SQL,
  bulkIds } from './checks.js';
import { Event, openDataSource } from './typeorm_ulid.js';

const c = new Checks('typeorm');
const recipe = execFileSync(process.execPath, ['typeorm_ulid.js'], { encoding: 'utf8' });
c.equal('the recipe synchronizes, saves and finds the row in the last hour', recipe, '26 true\n');

await c.run('without "ulid" in supportedDataTypes', async () => {
  const plain = new DataSource({ type: 'postgres', entities: [Event] });
  try {
    await plain.initialize();
    c.bad('initialize() accepted the ulid column type');
    await plain.destroy();
  } catch (e) {
    c.equal('without "ulid" in supportedDataTypes: initialize() throws DataTypeNotSupportedError',
      [e.name, e.message], ['DataTypeNotSupportedError', 'Data type "ulid" in "Event.id" is not supported by "postgres" database.']);
  }
});

const dataSource = await openDataSource();
await c.run('checks', async () => {
  const pending = await dataSource.driver.createSchemaBuilder().log();
  c.equal('a second sync of the recipe\'s table changes nothing (TypeORM reads ulid columns back as ulid)',
    pending.upQueries.map((q) => q.query), []);
  const events = dataSource.getRepository(Event);
  const row = await events.save({ what: 'default' });
  c.isUlid('save: id from DEFAULT gen_ulid() is a string (RETURNING)', row.id);
  const back = await events.findOne({ where: { id: row.id }, relations: { parent: true } });
  c.equal('findOne by string id: NULL tags and parent read as null', [back.tags, back.parent], [null, null]);
  await events.insert({ id: KNOWN_LOWER_ALIAS, tags: [KNOWN, null, MAX], what: 'given', parent: { id: row.id } });
  const given = await events.findOne({ where: { id: KNOWN }, relations: { parent: true } });
  c.equal('insert of a given id (lower case, l for 1), found by its canonical string', given.what, 'given');
  c.equal('ulid[] read as an array (registerUlid), NULL element as null', given.tags, [KNOWN, null, MAX]);
  c.equal('many-to-one: the parent through the ulid foreign key', given.parent.id, row.id);
  c.equal('findBy({ parent: { id } }) and findOneBy({ id }) with the lower-case alias',
    [(await events.findBy({ parent: { id: row.id } })).map((e) => e.id), (await events.findOneBy({ id: KNOWN_LOWER_ALIAS })).id],
    [[KNOWN], KNOWN]);

  const ids = bulkIds();
  await events.insert(ids.map((id) => ({ id, what: 'bulk' })));
  const bulk = await events.find({ select: { id: true }, where: { what: 'bulk' }, order: { id: 'ASC' } });
  c.equal(`bulk insert of ${BULK_ROWS} rows (one INSERT): the same ids in id order`, bulk.map((e) => e.id), [...ids].sort());
  const made = await events.insert(Array.from({ length: 100 }, () => ({ what: 'bulk default' })));
  c.equal('bulk insert without ids: 100 gen_ulid() ids returned', new Set(made.identifiers.map((i) => i.id)).size, 100);

  await dataSource.query(`INSERT INTO events (id, what) SELECT id, 'range' FROM (${RANGE_ROWS_SQL}) r`);
  const range = await events.createQueryBuilder('e').select('ulid_to_timestamp(e.id)', 'ts')
    .where("e.what = 'range' AND e.id BETWEEN ulid_min(:lo) AND ulid_max(:hi)", { lo: RANGE_LO, hi: RANGE_HI })
    .orderBy('e.id').getRawMany();
  c.equal('time range with ulid_min(:lo)/ulid_max(:hi) and Date parameters', range.length, RANGE_COUNT);
  c.equal('time range: first and last row on the bounds', [range[0].ts, range.at(-1).ts], [RANGE_LO, RANGE_HI]);

  const badString = (what, fn) => c.badStringWrapped(what, 'QueryFailedError', (e) => e.code, (e) => e.driverError,
    fn);
  await badString('bad string: insert', () => events.insert({ id: BAD, what: 'bad' }));
  await badString('bad string: findOneBy', () => events.findOneBy({ id: BAD }));
});
await dataSource.destroy();
c.exit();
