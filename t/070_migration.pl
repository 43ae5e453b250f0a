# Migration recipes, run verbatim from test/suites/recipes/*.sql on a server of its own;
# docs/migrating.md shows the same files.
#
# (a) migrate_uuid_to_ulid.sql: customers.id (uuid primary key; random v4 and time-ordered v7
#     values) and orders.id / orders.customer_id (uuid, foreign key ON DELETE CASCADE) become ulid
#     in place: every key keeps its 16 bytes, the tables are not rewritten, the foreign key is back
#     (validated, cascading, refusing orphans), new rows get gen_ulid(), a UUIDv7 key's time reads
#     back through ulid_to_timestamp, amcheck passes on the rebuilt indexes.
# (b) migrate_text_to_ulid.sql: a text and a char(26) column holding ULID strings made by a pure
#     PL/pgSQL encoder (the kind of generator people used before the extension) -- uppercase,
#     lowercase, with Crockford aliases, NULLs, and invalid strings of every kind -- become ulid: no
#     row lost, every valid string decodes to the bytes the encoder was given, every invalid one is
#     NULL and listed in ulid_rejects with its original value and the reason, NULLs stay NULL.
# (c) migrate_ulid_to_uuid.sql: back to uuid, byte-identical to the original uuids, foreign key
#     intact, and nothing left that depends on the extension (DROP EXTENSION ulid would succeed).
# (d) docs/migrating.md's parent-first steps in order: migrate_parent_first.sql (customers.id to
#     ulid, orders keep uuid with an index on uuid_ulid_ops), migrate_child_after_parent.sql
#     (orders.customer_id follows; the bare ALTER the page once showed is refused, checked), then
#     on 14+ a BRIN index on ulid_minmax_multi_ops (a bare ALTER back is refused, checked), and
#     migrate_parent_first_back.sql: every key byte-identical to the original uuid, the foreign
#     key, each index on uuid's class of the same kind, nothing depending on the extension.
# (e) the parent first and straight back, the child's index still on uuid_ulid_ops.
#
# Each recipe runs as psql -f FILE on the server; a set-up step that fails (a recipe included)
# ends the run, as nothing after it could be checked.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $recipes = 'test/suites/recipes';

my $node = PostgreSQL::Test::Cluster->new('m');
$node->init(extra => [ '--locale=C.UTF-8', '--encoding=UTF8' ]);
$node->start;

# query(SQL): the output of SQL (unaligned, tuples only), and on an error psql's message after it, so
# that the check that reads it fails and says why
sub query
{
	my ($sql, @extra) = @_;
	my ($rc, $out, $err) =
	  $node->psql('postgres', $sql, extra_params => [@extra]);
	return $rc == 0 ? $out : "$out\n$err";
}

# must(NAME, SQL, psql options...): a set-up step; the run ends when it fails
sub must
{
	my ($name, $sql, @extra) = @_;
	my ($rc, $out, $err) =
	  $node->psql('postgres', $sql, extra_params => [@extra]);
	ok($rc == 0, $name) or BAIL_OUT("$name: $err");
	return $out;
}

# recipe(FILE): run the recipe FILE (in test/suites/recipes/) as a set-up step (psql -f)
sub recipe
{
	my ($file) = @_;
	must("$file runs", '', '-f', "$recipes/$file");
}

# fk_checks(LABEL, TYPE): the foreign key exists, is validated and cascades, and refuses an orphan
# (a key of TYPE, the type orders.customer_id has)
sub fk_checks
{
	my ($label, $type) = @_;
	is( query(
			"SELECT pg_get_constraintdef(oid) || ' valid=' || convalidated FROM pg_constraint
			 WHERE conname = 'orders_customer_id_fkey'"),
		'FOREIGN KEY (customer_id) REFERENCES customers(id) ON DELETE CASCADE valid=true',
		"$label: orders_customer_id_fkey (validated, ON DELETE CASCADE)");
	like(
		query(
			"INSERT INTO orders (customer_id, note)
			 SELECT '00000000-0000-0000-0000-000000000001'::uuid::$type, 'orphan'"),
		qr/violates foreign key constraint "orders_customer_id_fkey"/,
		"$label: an order for a missing customer is refused (23503)");
	is( query(
			"BEGIN; DELETE FROM customers WHERE name = 'v4 customer 7';
			 SELECT count(*) FROM orders WHERE note LIKE 'v4 customer 7 order %'; ROLLBACK;"),
		'0',
		"$label: deleting a customer deletes its 3 orders (rolled back)");
	my $orders = query('SELECT count(*) FROM orders');
	is(query('SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id'),
		$orders, "$label: orders joined to their customer (of $orders)");
}

# types(): the types of customers.id, orders.id, orders.customer_id
sub types
{
	return query(
		"SELECT string_agg(format_type(atttypid, atttypmod), ',' ORDER BY attrelid::regclass::text, attnum)
		 FROM pg_attribute WHERE attrelid IN ('customers'::regclass, 'orders'::regclass)
		 AND attname IN ('id', 'customer_id')");
}

note 'setup';
like(query('SELECT version()'), qr/^PostgreSQL /, 'server m answers');
note query('SELECT version()');
my $server_num = query('SHOW server_version_num');
must('extensions ulid and amcheck',
	'CREATE EXTENSION ulid; CREATE EXTENSION amcheck');
must(
	'uuid schema: 1000 v4 + 1000 v7 customers, 3 orders each, snapshot of every key\'s bytes',
	q{
CREATE TABLE customers (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL UNIQUE,
                        v7_time timestamptz);
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                     customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
                     note text NOT NULL UNIQUE);
CREATE INDEX orders_customer_id ON orders (customer_id);
INSERT INTO customers (name) SELECT 'v4 customer ' || g FROM generate_series(1, 1000) g;
-- UUIDv7: 48-bit Unix milliseconds, version 7, variant, random bits
INSERT INTO customers (id, name, v7_time)
SELECT encode(substring(int8send((extract(epoch FROM t) * 1000)::bigint) FROM 3)
              || set_byte(substring(uuid_send(gen_random_uuid()) FROM 7), 0,
                          (get_byte(uuid_send(gen_random_uuid()), 6) & 15) | 112), 'hex')::uuid,
       'v7 customer ' || g, t
FROM (SELECT g, timestamptz '2024-05-01 00:00:00+00' + g * interval '1 hour 0.123 seconds' AS t
      FROM generate_series(1, 1000) g) s;
INSERT INTO orders (customer_id, note)
SELECT c.id, c.name || ' order ' || k FROM customers c, generate_series(1, 3) k;
CREATE TABLE snap_customers AS SELECT name, uuid_send(id) AS id_bytes FROM customers;
CREATE TABLE snap_orders AS
    SELECT note, uuid_send(id) AS id_bytes, uuid_send(customer_id) AS customer_bytes FROM orders;
CREATE TABLE filenodes AS
    SELECT relname, pg_relation_filenode(oid::regclass) AS before FROM pg_class
    WHERE relname IN ('customers', 'orders');
});

note "(a) uuid primary key and foreign key -> ulid ($recipes/migrate_uuid_to_ulid.sql)";
recipe('migrate_uuid_to_ulid.sql');
is(types(), 'ulid,ulid,ulid',
	'(a): column types customers.id, orders.id, orders.customer_id');
is( query(
		"SELECT count(*) FROM customers c FULL JOIN snap_customers s USING (name)
		 WHERE ulid_send(c.id) IS DISTINCT FROM s.id_bytes"),
	'0',
	'customers whose key bytes changed (of 2000)');
is( query(
		"SELECT count(*) FROM orders o FULL JOIN snap_orders s USING (note)
		 WHERE ulid_send(o.id) IS DISTINCT FROM s.id_bytes
		    OR ulid_send(o.customer_id) IS DISTINCT FROM s.customer_bytes"),
	'0',
	'orders whose id or customer_id bytes changed (of 6000)');
is( query(
		"SELECT count(*) FROM filenodes WHERE pg_relation_filenode(relname::regclass) <> before"
	),
	'0',
	'tables rewritten by the conversion (relfilenode changed; binary-coercible cast: none)');
fk_checks('after (a)', 'ulid');
is( query(
		"SELECT count(*) FROM customers
		 WHERE ulid_to_timestamp(id) = date_trunc('milliseconds', v7_time)"),
	'1000',
	'UUIDv7 keys whose ulid_to_timestamp(id) is their time (of 1000)');
must(
	'new customer and order with DEFAULT gen_ulid()', q{
WITH c AS (INSERT INTO customers (name) VALUES ('new customer') RETURNING id)
INSERT INTO orders (customer_id, note) SELECT id, 'new order' FROM c});
is( query(
		"SELECT abs(extract(epoch FROM ulid_to_timestamp(id) - now())) < 3600
		 FROM orders WHERE note = 'new order'"),
	't',
	"the new order's key is a ULID of now");
for my $idx (qw(customers_pkey orders_pkey orders_customer_id))
{
	my ($rc, $out, $err) =
	  $node->psql('postgres', "SELECT bt_index_check('$idx', true)");
	is($rc, 0, "bt_index_check($idx, heapallindexed) passes")
	  or diag($err);
}

note
  "(b) text and char(26) ULID strings -> ulid, bad values reported ($recipes/migrate_text_to_ulid.sql)";
# legacy_expected holds, per row, the strings stored and (for valid ones) the bytes they encode
must(
	'legacy_events: ULID strings from a PL/pgSQL encoder (upper, lower, aliases), NULLs, invalid strings',
	q{
CREATE FUNCTION plpgsql_ulid_text(b bytea) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
    alphabet CONSTANT text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    bits varbit := B'00';
    res text := '';
BEGIN
    FOR i IN 0..15 LOOP bits := bits || get_byte(b, i)::bit(8); END LOOP;
    FOR i IN 0..25 LOOP
        res := res || substr(alphabet, substring(bits FROM i * 5 + 1 FOR 5)::bit(5)::int + 1, 1);
    END LOOP;
    RETURN res;
END $$;
CREATE TABLE legacy_expected (id bigint PRIMARY KEY, kind text NOT NULL,
                              ext_text text, ext_bytes bytea, ref_text text, ref_bytes bytea);
-- valid: 48-bit ms of a 2023 time and 80 random bits
INSERT INTO legacy_expected (id, kind, ext_bytes, ref_bytes)
SELECT g, CASE WHEN g <= 1000 THEN 'upper' WHEN g <= 1200 THEN 'lower' ELSE 'alias' END,
       substring(int8send(1672531200000 + g * 60000) FROM 3) || substring(uuid_send(gen_random_uuid()) FROM 1 FOR 10),
       substring(int8send(1672531200000 + g * 61000) FROM 3) || substring(uuid_send(gen_random_uuid()) FROM 1 FOR 10)
FROM generate_series(1, 1250) g;
UPDATE legacy_expected SET ext_text = plpgsql_ulid_text(ext_bytes), ref_text = plpgsql_ulid_text(ref_bytes);
UPDATE legacy_expected SET ext_text = lower(ext_text), ref_text = lower(ref_text) WHERE kind = 'lower';
UPDATE legacy_expected SET ext_text = translate(ext_text, '01', 'OI'), ref_text = translate(lower(ref_text), '01', 'ol')
    WHERE kind = 'alias';
INSERT INTO legacy_expected (id, kind) SELECT g, 'null' FROM generate_series(1251, 1270) g;
-- invalid text values (the char(26) column valid), then invalid char(26) values (the text valid)
INSERT INTO legacy_expected (id, kind, ext_text, ref_text, ref_bytes)
SELECT 2000 + n, 'bad ext_id', v, plpgsql_ulid_text(b), b
FROM unnest(ARRAY['', '01ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FAVV',
                  '01ARZ3NDEKTSV4RRFFQ69G5FAU', '81ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEK-SV4RRFFQ69G5FAV',
                  ' 01ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FÄV', '01arz3ndektsv4rrffq69g5fa!',
                  '0190c5d4-7b3e-7c1a-9f7e-3d5c2a1b0e9f']) WITH ORDINALITY AS u (v, n),
     LATERAL (SELECT substring(int8send(1700000000000 + n) FROM 3) || '\x00112233445566778899'::bytea AS b) x;
INSERT INTO legacy_expected (id, kind, ext_text, ext_bytes, ref_text)
SELECT 3000 + n, 'bad ref', plpgsql_ulid_text(b), b, v
FROM unnest(ARRAY['abc', '01ARZ3NDEKTSV4RRFFQ69G5FAU', '81ARZ3NDEKTSV4RRFFQ69G5FAV',
                  '01ARZ3NDEKTSV4RRFFQ69G5F', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ', '01ARZ3NDEKTSV4RR_FQ69G5FAV'])
     WITH ORDINALITY AS u (v, n),
     LATERAL (SELECT substring(int8send(1700000000000 + n) FROM 3) || '\xffeeddccbbaa99887766'::bytea AS b) x;
CREATE TABLE legacy_events (id bigint PRIMARY KEY, ext_id text, ref char(26), body text NOT NULL);
INSERT INTO legacy_events SELECT id, ext_text, ref_text, 'row ' || id FROM legacy_expected;
});
my ($n_rows, $n_bad_ext, $n_bad_ref, $n_null) = split /\|/, query(
	"SELECT count(*), count(*) FILTER (WHERE kind = 'bad ext_id'),
	        count(*) FILTER (WHERE kind = 'bad ref'), count(*) FILTER (WHERE kind = 'null')
	 FROM legacy_expected");
my $n_bad = $n_bad_ext + $n_bad_ref;
note
  "legacy_events: $n_rows rows, $n_bad_ext invalid ext_id (text), $n_bad_ref invalid ref (char(26)), $n_null all-NULL";
is( query(
		"SELECT count(*) FROM legacy_expected WHERE kind = 'upper'
		 AND ext_text = (ext_bytes::ulid)::text AND ref_text = (ref_bytes::ulid)::text"),
	'1000',
	'the PL/pgSQL encoder agrees with ulid_out on the valid rows (of 1250)');
{
	my ($rc, $report, $err) = $node->psql(
		'postgres', '',
		extra_params => [ '-F', ' ', '-f', "$recipes/migrate_text_to_ulid.sql" ]);
	note "  report: $_" for split /\n/, $report;
	note "  stderr: $_" for split /\n/, $err;
	is($rc, 0, 'migrate_text_to_ulid.sql exit status');
	my @lines = split /\n/, $report;
	is( join(';', @lines[ -2 .. -1 ]),
		"ext_id $n_bad_ext;ref $n_bad_ref",
		'the report: rejected per column');
}
is( query(
		"SELECT string_agg(format_type(atttypid, atttypmod), ',' ORDER BY attnum) FROM pg_attribute
		 WHERE attrelid = 'legacy_events'::regclass AND attname IN ('ext_id', 'ref')"),
	'ulid,ulid',
	'column types ext_id, ref');
is(query('SELECT count(*) FROM legacy_events'),
	$n_rows, 'rows in legacy_events (none lost)');
is( query(
		"SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id)
		 WHERE e.body <> 'row ' || x.id"),
	'0',
	'rows whose body changed');
is( query(
		"SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id)
		 WHERE (x.ext_bytes IS NOT NULL AND ulid_send(e.ext_id) IS DISTINCT FROM x.ext_bytes)
		    OR (x.ref_bytes IS NOT NULL AND ulid_send(e.ref) IS DISTINCT FROM x.ref_bytes)"),
	'0',
	"valid strings not decoded to the encoder's bytes (upper, lower, aliases; both columns)");
is( query(
		"SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id)
		 WHERE x.kind IN ('lower', 'alias') AND e.ext_id::text = (x.ext_bytes::ulid)::text
		   AND e.ref::text = upper(plpgsql_ulid_text(x.ref_bytes))"),
	'250',
	'lowercase and alias strings now in canonical uppercase (of 250)');
is( query(
		"SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id)
		 WHERE (x.kind = 'bad ext_id' AND e.ext_id IS NULL) OR (x.kind = 'bad ref' AND e.ref IS NULL)"
	),
	$n_bad,
	"invalid values now NULL (of $n_bad)");
is( query(
		"SELECT count(*) FROM ulid_rejects r JOIN legacy_expected x ON x.id = r.row_id
		 WHERE r.table_name = 'legacy_events'::regclass
		   AND ((r.column_name = 'ext_id' AND x.kind = 'bad ext_id' AND r.bad_value = x.ext_text)
		     OR (r.column_name = 'ref' AND x.kind = 'bad ref' AND r.bad_value = rtrim(x.ref_text)))
		   AND r.reason LIKE 'invalid input syntax for type ulid: %'"),
	$n_bad,
	'invalid values listed in ulid_rejects with their original text and a 22P02 reason');
is(query('SELECT count(*) FROM ulid_rejects'), $n_bad, 'rows in ulid_rejects');
is( query(
		"SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id)
		 WHERE x.kind = 'null' AND e.ext_id IS NULL AND e.ref IS NULL"),
	$n_null,
	"NULLs still NULL (of $n_null rows)");
note "  reject: $_"
  for split /\n/,
  query('SELECT column_name, row_id, bad_value, reason FROM ulid_rejects ORDER BY 1, 2');

note "(c) ulid keys back to uuid ($recipes/migrate_ulid_to_uuid.sql)";
must(
	'snapshot before (c), new rows included', q{
CREATE TABLE snap2_customers AS SELECT name, ulid_send(id) AS id_bytes FROM customers;
CREATE TABLE snap2_orders AS
    SELECT note, ulid_send(id) AS id_bytes, ulid_send(customer_id) AS customer_bytes FROM orders;
});

# snap2_changes(): rows of customers and orders whose key bytes differ from the snapshot taken
# before (c) (rows on one side only included)
sub snap2_changes
{
	return query(
		"SELECT (SELECT count(*) FROM customers c FULL JOIN snap2_customers s USING (name)
		         WHERE uuid_send(c.id) IS DISTINCT FROM s.id_bytes)
		      + (SELECT count(*) FROM orders o FULL JOIN snap2_orders s USING (note)
		         WHERE uuid_send(o.id) IS DISTINCT FROM s.id_bytes
		            OR uuid_send(o.customer_id) IS DISTINCT FROM s.customer_bytes)");
}
recipe('migrate_ulid_to_uuid.sql');
is(types(), 'uuid,uuid,uuid',
	'(c): column types customers.id, orders.id, orders.customer_id');
is( query(
		"SELECT count(*) FROM customers c JOIN snap_customers s USING (name)
		 WHERE uuid_send(c.id) <> s.id_bytes"),
	'0',
	'customers whose key differs from the original uuid (round trip, of 2000)');
is( query(
		"SELECT count(*) FROM customers c JOIN snap_customers s USING (name)
		 WHERE uuid_send(c.id) = s.id_bytes"),
	'2000',
	'customers matched to their original uuid');
is( query(
		"SELECT count(*) FROM orders o JOIN snap_orders s USING (note)
		 WHERE uuid_send(o.id) <> s.id_bytes OR uuid_send(o.customer_id) <> s.customer_bytes"),
	'0',
	'orders whose keys differ from the original uuids (round trip, of 6000)');
is(snap2_changes(), '0',
	'rows whose key bytes changed in (c), new rows included');
fk_checks('after (c)', 'uuid');
is( query(
		"BEGIN;
		 DROP TABLE legacy_events, legacy_expected, ulid_rejects, snap2_customers, snap2_orders;
		 DROP FUNCTION ulid_parse_error(text), ulid_or_null(text);
		 DROP EXTENSION ulid;
		 SELECT 'dropped';
		 ROLLBACK;"),
	'dropped',
	'customers and orders no longer depend on the extension (DROP EXTENSION ulid RESTRICT, rolled back)'
);

# index_classes(): every index of customers and orders with the operator classes it uses
sub index_classes
{
	return query(
		"SELECT string_agg(i.indexrelid::regclass || ':' || c.opcname, ','
		                   ORDER BY i.indexrelid::regclass::text, c.opcname)
		 FROM pg_index i JOIN pg_opclass c ON c.oid = ANY (i.indclass::oid[])
		 WHERE i.indrelid IN ('customers'::regclass, 'orders'::regclass)");
}

# back_checks(LABEL, CLASSES): (d) and (e) end the same way: every key as it was, the foreign key,
# the indexes on CLASSES, nothing depending on ulid (the tables of (b) go in the rolled-back
# transaction too)
sub back_checks
{
	my ($label, $classes) = @_;
	is(types(), 'uuid,uuid,uuid',
		"$label: column types customers.id, orders.id, orders.customer_id");
	is(snap2_changes(), '0',
		"$label: customers or orders whose key bytes differ from before (d) (snapshot of (c), every row)"
	);
	fk_checks($label, 'uuid');
	is(index_classes(), $classes, "$label: the indexes' operator classes");
	is( query(
			"BEGIN; DROP TABLE legacy_events, legacy_expected, ulid_rejects;
			 DROP FUNCTION ulid_parse_error(text), ulid_or_null(text); DROP EXTENSION ulid;
			 SELECT 'dropped'; ROLLBACK;"),
		'dropped',
		"$label: nothing in customers and orders depends on the extension (DROP EXTENSION ulid, rolled back)"
	);
}

note '(d) docs/migrating.md in order: the parent first, then the child, then back';
recipe('migrate_parent_first.sql');
is(types(), 'ulid,uuid,uuid',
	'after the parent: column types customers.id, orders.id, orders.customer_id');
fk_checks('after the parent', 'uuid');
like(
	index_classes(),
	qr/orders_customer_id_ulid:uuid_ulid_ops/,
	'after the parent: orders.customer_id is indexed with uuid_ulid_ops');
like(
	query(
		'BEGIN; ALTER TABLE orders ALTER COLUMN customer_id TYPE ulid USING customer_id::ulid; ROLLBACK;'
	),
	qr/operator class "uuid_ulid_ops" does not accept data type ulid/,
	'the child with a bare ALTER COLUMN ... TYPE ulid is refused (why the recipe)');
recipe('migrate_child_after_parent.sql');
is(types(), 'ulid,uuid,ulid', 'after the child: column types');
fk_checks('after the child', 'ulid');
is( index_classes(),
	'customers_name_key:text_ops,customers_pkey:ulid_ops,orders_customer_id:ulid_ops,orders_note_key:text_ops,orders_pkey:uuid_ops',
	"after the child: the indexes' operator classes");
my $want_back =
  'customers_name_key:text_ops,customers_pkey:uuid_ops,orders_customer_id:uuid_ops,orders_note_key:text_ops,orders_pkey:uuid_ops';
if ($server_num >= 140000)
{
	must('a BRIN minmax-multi index on customers.id (ulid_minmax_multi_ops)',
		'CREATE INDEX customers_id_multi ON customers USING brin (id ulid_minmax_multi_ops)'
	);
	like(
		query(
			'BEGIN; ALTER TABLE orders DROP CONSTRAINT orders_customer_id_fkey;
			 ALTER TABLE customers ALTER COLUMN id TYPE uuid USING id::uuid; ROLLBACK;'),
		qr/operator class "ulid_minmax_multi_ops" does not accept data type uuid/,
		'customers.id back to uuid with a bare ALTER is refused (why the recipe)');
	$want_back = "customers_id_multi:uuid_minmax_multi_ops,$want_back";
}
else
{
	note
	  'PostgreSQL 13 has no BRIN minmax-multi: the way back meets only the default classes here';
}
recipe('migrate_parent_first_back.sql');
back_checks('(d) back', $want_back);
query('DROP INDEX customers_id_multi') if $server_num >= 140000;

note
  '(e) the parent first, then straight back (the child still on uuid_ulid_ops)';
recipe('migrate_parent_first.sql');
recipe('migrate_parent_first_back.sql');
back_checks('(e) back',
	'customers_name_key:text_ops,customers_pkey:uuid_ops,orders_customer_id_ulid:uuid_ops,orders_note_key:text_ops,orders_pkey:uuid_ops'
);

done_testing();
