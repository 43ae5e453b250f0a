// node-postgres against the server: text and binary reads, parameters, ulid[], NULL, COPY, time range, errors.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { BAD, BULK_ROWS, Checks, KNOWN, KNOWN_HEX, KNOWN_LOWER_ALIAS, MAX, RANGE_COUNT, RANGE_HI, RANGE_LO,
  RANGE_ROWS_SQL, bulkIds, ulidToString } from './checks.js';
import { registerUlid } from './pg_ulid.js';

const c = new Checks('node-postgres');
const client = new pg.Client();
await client.connect();
const one = async (text, values = [], binary = false) => (await client.query({ text, values, binary, rowMode: 'array' })).rows[0][0];
const ARR = [KNOWN, null, MAX];
const ARR_SQL = `SELECT ARRAY[$1::ulid, NULL, '${MAX}']`;

// a binary COPY stream of one ulid column (header, one 16-byte field per row, trailer)
function copyBinary(ids) {
  const head = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
  const rows = ids.map((hex) => Buffer.concat([Buffer.from([0, 1, 0, 0, 0, 16]), Buffer.from(hex, 'hex')]));
  return Buffer.concat([head, ...rows, Buffer.from([0xff, 0xff])]);
}

await c.run('checks', async () => {
  c.isUlid('default (text mode): gen_ulid() is a string', await one('SELECT gen_ulid()'));
  c.equal('default: ulid[] is one unparsed string', await one(ARR_SQL, [KNOWN]), `{${KNOWN},NULL,${MAX}}`);
  // binary: true is no way to read ulid: pg-protocol decodes every field as UTF-8 text, so 16 raw
  // bytes come back mangled (documented in docs/clients-node.md; this fails once node-postgres keeps the bytes)
  const mangled = await one('SELECT $1::ulid', [KNOWN], true);
  c.equal('binary: true mangles the 16 bytes (UTF-8 decoding in pg-protocol)',
    [typeof mangled, Buffer.from(mangled).toString('hex') === KNOWN_HEX], ['string', false]);

  await registerUlid(client);
  c.isUlid('registered: gen_ulid()', await one('SELECT gen_ulid()'));
  c.equal('registered: ulid[] is an array (NULL element too)', await one(ARR_SQL, [KNOWN]), ARR);
  c.equal('NULL::ulid is null', await one('SELECT NULL::ulid'), null);

  await client.query('CREATE TEMP TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid, refs ulid[])');
  c.equal('string parameter (lower case, l for 1) into a ulid column',
    await one('INSERT INTO t (ref) VALUES ($1) RETURNING ref', [KNOWN_LOWER_ALIAS]), KNOWN);
  c.equal('WHERE ref = $1 with a string', await one('SELECT count(*)::int FROM t WHERE ref = $1', [KNOWN]), 1);
  c.equal('Buffer parameter: 16 bytes sent in binary, read by ulid_recv',
    await one('SELECT $1::ulid', [Buffer.from(KNOWN_HEX, 'hex')]), KNOWN);
  c.equal('uuid-formatted string through the uuid -> ulid cast',
    await one('SELECT $1::uuid::ulid', ['01563e3a-b5d3-d676-4c61-efb99302bd5b']), KNOWN);
  c.equal('array parameter as ulid[] and null as NULL',
    (await client.query({ text: 'INSERT INTO t (ref, refs) VALUES ($1, $2) RETURNING ref, refs', values: [null, ARR], rowMode: 'array' })).rows[0],
    [null, ARR]);

  const sorted = (ids) => [...ids].sort().join(',');
  let ids = bulkIds();
  await client.query('TRUNCATE t');
  await pipeline(Readable.from(ids.map((i) => i + '\n')), client.query(copyFrom('COPY t (id) FROM STDIN')));
  c.equal(`COPY FROM STDIN (text, pg-copy-streams): ${BULK_ROWS} rows, the same ids`,
    (await client.query({ text: "SELECT count(*)::int, string_agg(id::text, ',' ORDER BY id) FROM t", rowMode: 'array' })).rows[0],
    [BULK_ROWS, sorted(ids)]);
  let out = '';
  await pipeline(client.query(copyTo('COPY (SELECT id FROM t ORDER BY id) TO STDOUT')), async (src) => {
    for await (const chunk of src) out += chunk;
  });
  c.equal('COPY TO STDOUT (text): the same ids', out.trim().split('\n').join(','), sorted(ids));
  ids = bulkIds();
  await client.query('TRUNCATE t');
  const hex = Array.from({ length: BULK_ROWS }, () => randomBytes(16).toString('hex'));
  ids = hex.map((h) => ulidToString(Buffer.from(h, 'hex')));
  await pipeline(Readable.from([copyBinary(hex)]), client.query(copyFrom('COPY t (id) FROM STDIN (FORMAT binary)')));
  c.equal(`COPY FROM STDIN (FORMAT binary, 16-byte fields): ${BULK_ROWS} rows, the same ids`,
    (await client.query({ text: "SELECT count(*)::int, string_agg(id::text, ',' ORDER BY id) FROM t", rowMode: 'array' })).rows[0],
    [BULK_ROWS, sorted(ids)]);

  await client.query('CREATE TEMP TABLE r AS ' + RANGE_ROWS_SQL);
  const { rows } = await client.query({
    text: 'SELECT id, ulid_to_timestamp(id) AS ts FROM r WHERE id BETWEEN ulid_min($1) AND ulid_max($2) ORDER BY id',
    values: [RANGE_LO, RANGE_HI],
  });
  c.equal('time range with ulid_min($1)/ulid_max($2) and Date parameters', rows.length, RANGE_COUNT);
  c.equal('time range: first and last row on the bounds', [rows[0].ts, rows.at(-1).ts], [RANGE_LO, RANGE_HI]);

  await c.badString('bad string parameter', () => one('SELECT $1::ulid', [BAD]));
});
await client.end();

const demo = execFileSync(process.execPath, ['pg_ulid.js'], { encoding: 'utf8' });
c.equal('the recipe prints a string id and the array', demo.replace(/"[0-7][0-9A-Z]{25}"/, '"ID"'),
  `{"id":"ID","tags":["${KNOWN}"]}\n`);
c.exit();
