// node-postgres: ulid is a string (text mode, the default); register once per process to get
// ulid[] as an array of strings instead of the array literal.
import pg from 'pg';

export async function registerUlid(client) {
  const { rows } = await client.query("SELECT 'ulid[]'::regtype::oid AS oid");
  pg.types.setTypeParser(rows[0].oid, 'text', (text) => pg.types.arrayParser.create(text, String).parse());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const client = new pg.Client(); // PG* environment variables
  await client.connect();
  await registerUlid(client);
  await client.query('CREATE TEMP TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), tags ulid[])');
  const { rows } = await client.query({
    text: 'INSERT INTO events (tags) VALUES ($1) RETURNING id, tags',
    values: [['01ARZ3NDEKTSV4RRFFQ69G5FAV']],
  });
  console.log(JSON.stringify(rows[0])); // {"id":"<26 characters>","tags":["01ARZ3NDEKTSV4RRFFQ69G5FAV"]}
  await client.end();
}
