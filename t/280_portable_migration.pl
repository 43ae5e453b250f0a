# The portable edition's ways up and down, with the recipes of test/suites/recipes run verbatim
# (docs/portable.md quotes them), on a server of its own where this tree's extension is installed:
# (up)   customers (uuid primary key) and orders (uuid primary key, uuid foreign key ON DELETE
#        CASCADE, an index on it), keys filled by ulid_portable.gen_ulid(), move to the native type
#        with migrate_uuid_to_ulid.sql: no table rewritten (relfilenode unchanged), every key reads
#        back as the 26 characters ulid_portable.ulid_encode() gave, foreign key and index back,
#        new rows from gen_ulid(); portable_drop.sql first refuses (a default still uses the
#        schema), then drops the schema with RESTRICT after the move. The parent first
#        (migrate_parent_first.sql): customers move to ulid, orders keep uuid, the foreign key
#        re-created on ulid = uuid, the application's uuid-typed queries unchanged.
# (down) the same tables on the native type move to uuid with native_to_portable.sql (no rewrite,
#        defaults ulid_portable.gen_ulid()), portable_dump_restore.sh restores them into a database
#        without the extension: no error, no extension there, the same bytes and the same 26
#        characters, foreign key and defaults working, new keys above the old ones.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started  = time;
my $portable = 'portable/ulid_portable.sql';
my $recipes  = 'test/suites/recipes';
my $su       = getpwuid($<);    # the bootstrap superuser: the OS user that ran initdb
my $db       = 'postgres';
my $src      = 'native_src';
my $dst      = 'portable_dst';
my $pf       = 'parent_first';
my $bindir   = pg_config_value('--bindir');
my $work     = PostgreSQL::Test::Utils::tempdir;

my $node = PostgreSQL::Test::Cluster->new('portable_migration');
$node->init;
$node->start;

# qd(DB, SQL): the output of SQL as the superuser in DB ('' and a diagnostic on an error);
# qd_ok(DB, SQL): true when it ran without an error
sub qd    { return node_as($node, $su, @_); }
sub qd_ok { return node_as_ok($node, $su, @_); }

# qd_err(DB, SQL): psql's error text of SQL in DB ('' when it went through)
sub qd_err
{
	my ($rc, $out, $err) = node_psql_as($node, $su, @_);
	return $err;
}

# file_ok(DB, FILE): true when psql -f FILE ran in DB without an error
sub file_ok
{
	my ($d, $file) = @_;
	my ($rc, $out, $err) = node_psql_as($node, $su, $d, undef, $file);
	diag("$d, $file: $err") if $rc != 0;
	return $rc == 0;
}

# recipe(DB, FILE): the SQL recipe FILE of test/suites/recipes/ run in DB
sub recipe
{
	return file_ok($_[0], "$recipes/$_[1]");
}

# types(DB): the types of customers.id, orders.id, orders.customer_id
sub types
{
	return qd(
		$_[0],
		"SELECT string_agg(format_type(atttypid, atttypmod), ',' ORDER BY attrelid::regclass::text, attnum)
           FROM pg_attribute WHERE attrelid IN ('customers'::regclass, 'orders'::regclass)
            AND attname IN ('id', 'customer_id')");
}

# schema(DB, KEYTYPE, DEFAULT): customers and orders with a foreign key and an index, 2000 + 6000
# rows, and their relfilenodes noted in a table filenodes
sub schema
{
	my ($d, $type, $default) = @_;
	return qd_ok(
		$d, "
    CREATE TABLE customers (id $type PRIMARY KEY DEFAULT $default, name text NOT NULL UNIQUE);
    CREATE TABLE orders (id $type PRIMARY KEY DEFAULT $default,
                         customer_id $type NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
                         note text NOT NULL UNIQUE);
    CREATE INDEX orders_customer_id ON orders (customer_id);
    INSERT INTO customers (name) SELECT 'customer ' || g FROM generate_series(1, 2000) g;
    INSERT INTO orders (customer_id, note) SELECT c.id, c.name || ' order ' || k FROM customers c, generate_series(1, 3) k;
    CREATE TABLE filenodes AS SELECT relname, pg_relation_filenode(oid::regclass) AS before FROM pg_class
        WHERE relname IN ('customers', 'orders')");
}

# fk_checks(LABEL, DB, TYPE): the foreign key and its index; an order for a missing customer refused
# (in one transaction, which the refusal rolls back: the order and the customer it deletes stay)
sub fk_checks
{
	my ($label, $d, $type) = @_;
	is( qd( $d,
			"SELECT pg_get_constraintdef(oid) || ' valid=' || convalidated FROM pg_constraint
              WHERE conname = 'orders_customer_id_fkey'")
		  . '|'
		  . qd($d,
			"SELECT count(*) FROM pg_index WHERE indexrelid = 'orders_customer_id'::regclass AND indisvalid"
		  ),
		'FOREIGN KEY (customer_id) REFERENCES customers(id) ON DELETE CASCADE valid=true|1',
		"$label: foreign key validated, ON DELETE CASCADE; index on orders.customer_id");
	like(
		qd_err(
			$d,
			"BEGIN;
             INSERT INTO orders (customer_id, note) SELECT id, 'orphan' FROM customers ORDER BY id DESC LIMIT 1;
             DELETE FROM customers WHERE id = (SELECT id FROM customers ORDER BY id DESC LIMIT 1);
             INSERT INTO orders (customer_id, note) SELECT '00000000-0000-0000-0000-000000000001'::uuid::$type, 'orphan 2'"
		),
		qr/violates foreign key constraint "orders_customer_id_fkey"/,
		"$label: an order for a missing customer is refused");
	return;
}

# unchanged_files(DB): how many of the tables have another relfilenode than at their creation
sub unchanged_files
{
	return qd($_[0],
		'SELECT count(*) FROM filenodes WHERE pg_relation_filenode(relname::regclass) <> before');
}

note qd($db, 'SELECT version()');
must(file_ok($db, $portable), 'portable edition installed');

note "up: portable -> native ($recipes/migrate_uuid_to_ulid.sql, $recipes/portable_drop.sql)";
must(schema($db, 'uuid', 'ulid_portable.gen_ulid()'),
	'uuid tables keyed by ulid_portable.gen_ulid(): 2000 customers, 6000 orders');
must(
	qd_ok(
		$db, "
    CREATE TABLE snap_customers AS SELECT name, ulid_portable.ulid_encode(id) AS id_text FROM customers;
    CREATE TABLE snap_orders AS SELECT note, ulid_portable.ulid_encode(id) AS id_text,
                                       ulid_portable.ulid_encode(customer_id) AS customer_text FROM orders"),
	'snapshot: the portable encoder\'s text of every key');
cmp_num(
	qd( $db,
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY xmin::text::bigint, ctid) AS back FROM orders) s WHERE back'
	),
	'==', 0,
	'keys in increasing order of insertion (one session\'s gen_ulid())');
{
	my ($rc, $out, $err) = node_psql_as($node, $su, $db, undef, "$recipes/portable_drop.sql");
	like(
		"$out\n$err",
		qr/\Qdefault value for column id of table customers depends on function ulid_portable.gen_ulid()\E/,
		'portable_drop.sql refuses while a default uses the schema');
}
cmp_num(qd($db, "SELECT count(*) FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace"),
	'==', 17, '... and drops nothing');
must(qd_ok($db, 'CREATE EXTENSION IF NOT EXISTS ulid'), 'CREATE EXTENSION ulid');
must(recipe($db, 'migrate_uuid_to_ulid.sql'), 'migrate_uuid_to_ulid.sql runs');
is(types($db), 'ulid,ulid,ulid', 'column types customers.id, orders.id, orders.customer_id');
cmp_num(unchanged_files($db), '==', 0, 'tables rewritten (relfilenode changed)');
cmp_num(
	qd( $db,
		"SELECT (SELECT count(*) FROM customers c FULL JOIN snap_customers s USING (name) WHERE c.id::text IS DISTINCT FROM s.id_text)
              + (SELECT count(*) FROM orders o FULL JOIN snap_orders s USING (note)
                 WHERE o.id::text IS DISTINCT FROM s.id_text OR o.customer_id::text IS DISTINCT FROM s.customer_text)"
	),
	'==', 0,
	'keys whose text differs from the portable encoder\'s (2000 customers, 6000 orders)');
cmp_num(
	qd( $db,
		"SELECT (SELECT count(*) FROM customers c JOIN snap_customers s ON c.id::text = s.id_text)
              + (SELECT count(*) FROM orders o JOIN snap_orders s ON o.id::text = s.id_text AND o.customer_id::text = s.customer_text)"
	),
	'==', 8000,
	'keys matched (of 8000)');
fk_checks('up', $db, 'ulid');
must(
	qd_ok(
		$db, "
    INSERT INTO customers (name) VALUES ('native customer');
    DO \$\$ BEGIN IF (SELECT id FROM customers WHERE name = 'native customer')
                      <= (SELECT max(id) FROM customers WHERE name <> 'native customer') IS NOT FALSE THEN
                     RAISE EXCEPTION 'new key not above the old ones'; END IF; END \$\$"),
	'new rows with DEFAULT gen_ulid() above the portable ones');
must(recipe($db, 'portable_drop.sql'), 'portable_drop.sql runs');
cmp_num(qd($db, "SELECT count(*) FROM pg_namespace WHERE nspname = 'ulid_portable'"),
	'==', 0, 'schema ulid_portable gone');
is( qd($db, 'SELECT count(*) FROM customers') . '|'
	  . qd($db, 'SELECT count(*) FROM orders') . '|'
	  . qd($db,
		"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'customers'::regclass"),
	'2001|6000|gen_ulid()',
	'rows and defaults after the drop');

note "up, the parent first: customers move to ulid, orders keep uuid ($recipes/migrate_parent_first.sql)";
must(
	qd_ok('postgres', "CREATE DATABASE $pf")
	  && file_ok($pf, $portable)
	  && qd_ok($pf, 'CREATE EXTENSION ulid'),
	"database $pf with the portable edition and the native extension");
must(schema($pf, 'uuid', 'ulid_portable.gen_ulid()'),
	'uuid tables keyed by ulid_portable.gen_ulid(): 2000 customers, 6000 orders');
must(
	qd_ok(
		$pf, 'CREATE TABLE snap AS SELECT name, id AS id_uuid FROM customers;
              CREATE TABLE snap_o AS SELECT note, id, customer_id FROM orders'),
	'snapshot of every key\'s bytes');
must(recipe($pf, 'migrate_parent_first.sql'), 'migrate_parent_first.sql runs');
is(types($pf), 'ulid,uuid,uuid', 'column types customers.id, orders.id, orders.customer_id');
cmp_num(unchanged_files($pf), '==', 0, 'tables rewritten (relfilenode changed)');
cmp_num(
	qd( $pf,
		'SELECT count(*) FROM customers c FULL JOIN snap s USING (name)
          WHERE c.id IS DISTINCT FROM s.id_uuid OR c.id::text IS DISTINCT FROM ulid_portable.ulid_encode(s.id_uuid)'
	),
	'==', 0,
	'customer keys whose bytes or portable text changed (of 2000)');
cmp_num(
	qd( $pf,
		'SELECT count(*) FROM orders o JOIN snap_o s USING (note) WHERE o.id = s.id AND o.customer_id = s.customer_id'
	),
	'==', 6000,
	'orders untouched (of 6000)');
is( qd( $pf,
		"SELECT pg_get_constraintdef(oid) || ' valid=' || convalidated FROM pg_constraint WHERE conname = 'orders_customer_id_fkey'"
	),
	'FOREIGN KEY (customer_id) REFERENCES customers(id) ON DELETE CASCADE valid=true',
	'the foreign key, re-created on ulid = uuid, validated');
is( qd( $pf,
		"SELECT string_agg(c.opcname, ',') FROM pg_index i JOIN pg_opclass c ON c.oid = i.indclass[0]
          WHERE i.indrelid = 'orders'::regclass AND i.indkey[0] = 2 AND i.indisvalid"),
	'uuid_ulid_ops',
	'orders.customer_id indexed in ulid\'s family');
like(
	qd_err(
		$pf,
		"INSERT INTO orders (customer_id, note) VALUES ('00000000-0000-0000-0000-000000000001', 'orphan')"
	),
	qr/violates foreign key constraint "orders_customer_id_fkey"/,
	'an order for a missing customer is refused');
{
	my $customer7 = qd($pf, "SELECT id_uuid FROM snap WHERE name = 'customer 7'");
	is( join(
			' ',
			split /\n/,
			qd( $pf,
				"PREPARE c(uuid) AS SELECT name FROM customers WHERE id = \$1;
                 EXECUTE c('$customer7');
                 SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.name = 'customer 7'"
			)),
		'customer 7 3',
		'the application unchanged: uuid-typed lookups of customers, orders by customer, a join');
}
is( join(
		' ',
		split /\n/,
		qd( $pf,
			"INSERT INTO customers (name) VALUES ('native customer');
             INSERT INTO orders (customer_id, note) SELECT id, 'native order' FROM customers WHERE name = 'native customer';
             SELECT (SELECT id FROM customers WHERE name = 'native customer') > (SELECT id_uuid FROM snap ORDER BY id_uuid DESC LIMIT 1);
             DELETE FROM customers WHERE name IN ('native customer', 'customer 8');
             SELECT count(*) FROM orders WHERE note IN ('native order') OR note LIKE 'customer 8 order %'"
		)),
	't 0',
	'new customers from gen_ulid(), new orders reference them as uuid, deleting cascades');
qd('postgres', "DROP DATABASE $pf");

note 'down: native -> portable, pg_dump/pg_restore into a database without the extension';
must(qd_ok('postgres', "CREATE DATABASE $src"), 'source database with the native extension');
must(qd_ok('postgres', "CREATE DATABASE $dst"), 'target database without it');
must(qd_ok($src, 'CREATE EXTENSION ulid') && schema($src, 'ulid', 'gen_ulid()'),
	'native tables keyed by gen_ulid(): 2000 customers, 6000 orders');
must(
	qd_ok(
		$src, "
    CREATE TABLE snap AS SELECT 'c ' || name AS k, id::text AS id_text, ulid_send(id) AS id_bytes FROM customers
    UNION ALL SELECT 'o ' || note, id::text || customer_id::text, ulid_send(id) || ulid_send(customer_id) FROM orders"
	),
	'snapshot of the native text and bytes');
my @snap = sort split /\n/, qd($src, 'COPY snap TO STDOUT');
must(file_ok($src, $portable), 'portable edition installed next to the extension');
must(recipe($src, 'native_to_portable.sql'), 'native_to_portable.sql runs');
is(types($src), 'uuid,uuid,uuid', 'source column types');
cmp_num(unchanged_files($src), '==', 0, 'source tables rewritten (relfilenode changed)');
must(qd_ok($src, 'DROP TABLE snap, filenodes'),
	'drop the snapshot helpers (not part of the move)');
{
	local $ENV{DUMP_FILE} = "$work/app.dump";
	local $ENV{SOURCE_DB} = $src;
	local $ENV{TARGET_DB} = $dst;
	local $ENV{PGHOST}    = $node->host;
	local $ENV{PGPORT}    = $node->port;
	local $ENV{PGUSER}    = $su;
	local $ENV{PATH}      = "$bindir:$ENV{PATH}";
	my ($rc, $out) =
	  run_cmd('bash', '-euo', 'pipefail', "$recipes/portable_dump_restore.sh");
	is($rc, 0, 'portable_dump_restore.sh exit status (pg_restore --exit-on-error)');
	is($out, '', 'its output (no error, no warning)');
}
is(qd($dst, "SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension"),
	'plpgsql', 'target: extensions installed');
is(types($dst), 'uuid,uuid,uuid', 'target column types');
my @restored = sort split /\n/, qd(
	$dst,
	"COPY (SELECT 'c ' || name, ulid_portable.ulid_encode(id), uuid_send(id) FROM customers
           UNION ALL SELECT 'o ' || note, ulid_portable.ulid_encode(id) || ulid_portable.ulid_encode(customer_id),
                            uuid_send(id) || uuid_send(customer_id) FROM orders) TO STDOUT");
cmp_num(scalar(@restored), '==', 8000, 'restored rows (2000 + 6000)');
{
	my @differ = grep { $snap[$_] ne ($restored[$_] // '') } 0 .. $#snap;
	ok( @snap == @restored && !@differ,
		'every key: the same bytes, and ulid_portable.ulid_encode() gives the native 26 characters')
	  or diag('keys differ: '
		  . join(' ',
			map { "native <$snap[$_]> restored <" . ($restored[$_] // '') . '>' }
			  splice(@differ, 0, 2)));
}
fk_checks('down', $dst, 'uuid');
is( qd( $dst,
		"SELECT string_agg(pg_get_expr(adbin, adrelid), ',' ORDER BY adrelid::regclass::text) FROM pg_attrdef"
	),
	'ulid_portable.gen_ulid(),ulid_portable.gen_ulid()',
	'target defaults');
is( qd( $dst,
		"WITH c AS (INSERT INTO customers (name) VALUES ('portable customer') RETURNING id)
         SELECT (SELECT id FROM c) > (SELECT id FROM customers ORDER BY id DESC LIMIT 1)"),
	't',
	'new rows in the target: DEFAULT ulid_portable.gen_ulid() above every restored key');

note 'portable_migration took ' . (time - $started) . ' s';
done_testing();
