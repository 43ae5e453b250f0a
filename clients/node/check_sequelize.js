// Sequelize against the server: sync() (and sync({ alter: true }) again), gen_ulid() default, ulid/ulid[]/NULL,
// belongsTo/hasMany, bulkCreate, a time range, errors.
import { execFileSync } from 'node:child_process';
import { Op, Sequelize } from 'sequelize';
import { BAD, BULK_ROWS, Checks, KNOWN, KNOWN_LOWER_ALIAS, MAX, RANGE_COUNT, RANGE_HI, RANGE_LO, RANGE_ROWS_SQL,
  bulkIds } from './checks.js';
import { connect } from './sequelize_ulid.js';

const c = new Checks('sequelize');
const recipe = execFileSync(process.execPath, ['sequelize_ulid.js'], { encoding: 'utf8' });
c.equal('the recipe syncs, creates and finds the row in the last hour', recipe, '26 true\n');

const { sequelize, Event } = await connect();
const columns = async () => sequelize.query(`SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS type,
    pg_get_expr(d.adbin, d.adrelid) AS default FROM pg_attribute a
    LEFT JOIN pg_attrdef d ON (d.adrelid, d.adnum) = (a.attrelid, a.attnum)
    WHERE a.attrelid = 'events'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, { type: 'SELECT' });
await c.run('checks', async () => {
  const before = await columns();
  c.equal('sync(): the columns, ulid[], DEFAULT gen_ulid(), the parentId foreign key column', before.map(Object.values), [
    ['id', 'ulid', 'gen_ulid()'], ['tags', 'ulid[]', null], ['what', 'text', null], ['parentId', 'ulid', null]]);
  // sync({ alter: true }) compares with the table in the model's schema (public unless given)
  const [{ schema }] = await sequelize.query('SELECT current_schema() AS schema', { type: 'SELECT' });
  const altered = [];
  await Event.schema(schema).sync({ alter: true, logging: (sql) => altered.push(sql) });
  c.equal('sync({ alter: true }) (Event.schema(current_schema())): it alters tags TYPE ulid[], and nothing changes',
    [altered.some((q) => q.includes('ALTER COLUMN "tags" TYPE ulid[]')), await columns()], [true, before]);

  const row = await Event.create({ what: 'default' });
  c.isUlid('create: id from DEFAULT gen_ulid() is a string (RETURNING)', row.id);
  c.equal('create: NULL tags and parentId read as null', [row.tags, row.parentId], [null, null]);
  await Event.create({ id: KNOWN_LOWER_ALIAS, parentId: row.id, tags: [KNOWN, null, MAX], what: 'given' });
  const given = await Event.findByPk(KNOWN, { include: 'parent' });
  c.equal('findByPk with a string (the row created with the lower-case alias)', given.what, 'given');
  c.equal('ulid[] read as an array (registerUlid), NULL element as null', given.tags, [KNOWN, null, MAX]);
  c.equal('belongsTo: the parent through the ulid foreign key', given.parent.id, row.id);
  c.equal('hasMany: the parent\'s children', (await row.getChildren()).map((e) => e.id), [KNOWN]);
  c.equal('findOne({ where: { id } }) with the lower-case alias', (await Event.findOne({ where: { id: KNOWN_LOWER_ALIAS } })).id,
    KNOWN);

  const ids = bulkIds();
  await Event.bulkCreate(ids.map((id) => ({ id, what: 'bulk' })));
  const bulk = await Event.findAll({ attributes: ['id'], where: { what: 'bulk' }, order: [['id', 'ASC']] });
  c.equal(`bulkCreate of ${BULK_ROWS} rows: the same ids in id order`, bulk.map((e) => e.id), [...ids].sort());
  const made = await Event.bulkCreate(Array.from({ length: 100 }, () => ({ what: 'bulk default' })), { returning: true });
  c.equal('bulkCreate without ids: 100 distinct gen_ulid() ids returned', new Set(made.map((e) => e.id)).size, 100);

  await sequelize.query(`INSERT INTO events (id, what) SELECT id, 'range' FROM (${RANGE_ROWS_SQL}) r`);
  const range = await Event.findAll({
    attributes: [[Sequelize.fn('ulid_to_timestamp', Sequelize.col('id')), 'ts']], order: [['id', 'ASC']], raw: true,
    where: { what: 'range', id: { [Op.between]: [Sequelize.fn('ulid_min', RANGE_LO), Sequelize.fn('ulid_max', RANGE_HI)] } } });
  c.equal('time range with ulid_min/ulid_max (Sequelize.fn) and Date parameters', range.length, RANGE_COUNT);
  c.equal('time range: first and last row on the bounds', [range[0].ts, range.at(-1).ts], [RANGE_LO, RANGE_HI]);

  const badString = (what, fn) => c.badStringWrapped(what, 'SequelizeDatabaseError', (e) => e.parent?.code,
    (e) => e.parent, fn);
  await badString('bad string: create', () => Event.create({ id: BAD, what: 'bad' }));
  await badString('bad string: findByPk', () => Event.findByPk(BAD));
});
await sequelize.close();
c.exit();
