# Dump/restore suite: pg_dump -Fc | pg_restore and pg_dump | psql keep every ulid value, default,
# index and partition.
#
# A server of its own. The source database (dump_src) gets the extension in a schema of its own
# (ulidx, not on the restore's search_path, so every reference in the dump must be qualified) and:
#   app.events: id ulid PRIMARY KEY DEFAULT gen_ulid(), a nullable ulid with a btree index, a ulid[]
#     column, a DEFAULT gen_ulid(timestamptz) column, a DEFAULT gen_random_ulid() column with a
#     unique btree, bloom and minmax-multi BRIN indexes (a minmax BRIN on 13, which has neither), a
#     generated column ulid_to_timestamp(id), an expression index, a CHECK constraint, a hash and a
#     minmax BRIN index on id, edge values (the smallest/largest ULID, NULLs, empty arrays, NULL
#     elements);
#   app.shards: PARTITION BY HASH (id) with 4 partitions, DEFAULT gen_random_ulid(), a hash index;
#   app.links: a composite ulid key with a foreign key to events, a domain over ulid, a view.
# It is copied with pg_dump -Fc + pg_restore (database dump_src_fc) and with pg_dump | psql
# (dump_src_sql). Checks, for each copy: the restore ran without an error; schema-only dumps are
# identical to the source's; every table's rows are identical (md5 of COPY text ordered by key, the
# partition of each row included; also COPY BINARY for events); every row sits in the partition its
# hash selects (satisfies_hash_partition); every index is valid; amcheck bt_index_parent_check
# (heapallindexed) on every btree index; every row found through the hash indexes; BRIN scans find
# every row; the column defaults still work after the restore.
#
# The dump and restore programs are the server's own (its bin directory is first on PATH); amcheck
# from contrib. About a minute.

use strict;
use warnings;

use Digest::MD5 qw(md5_hex);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $SRC = 'dump_src';
my $DB_FC = "${SRC}_fc";
my $DB_SQL = "${SRC}_sql";
my $ROWS = 20000;

my $work = PostgreSQL::Test::Utils::tempdir();

my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
$node->start;
$node->safe_psql('postgres', "CREATE DATABASE $SRC");

# the checks' own queries see the extension's schema
my $CHECK_SETTINGS =
  "SET search_path = app, ulidx, public;\nSET client_min_messages = warning;\n";

# query DB, SQL: one value (or rows) from DB (-XAtq, ON_ERROR_STOP=1); on an error, the error as a
# diagnostic and '' as the output, so the check that reads it fails; with a third argument, the
# error message (its first line) instead of a diagnostic, in @{$_[2]}
sub query
{
	my ($db, $sql, $errors) = @_;
	my ($rc, $out, $err) = $node->psql($db, $CHECK_SETTINGS . $sql);
	if ($rc != 0)
	{
		if ($errors)
		{
			my $first = (split /\n/, $err)[0] // '';
			$first =~ s/^psql:\S+ //;
			push @$errors, $first;
		}
		else { diag("query failed: $err"); }
		return '';
	}
	return $out;
}

# run_prog [COMMAND...], STDOUT, STDERR: run a program, its output into the files (or scalar refs);
# its exit status
sub run_prog
{
	my ($cmd, $stdout, $stderr) = @_;
	IPC::Run::run($cmd, '<', \'', '>', $stdout, '2>', $stderr);
	return $? >> 8;
}

# table_md5 DB, SQL[, 'binary']: md5 of COPY (SQL) TO STDOUT (the bytes psql writes)
sub table_md5
{
	my ($db, $sql, $binary) = @_;
	my $fmt = defined $binary ? ' (FORMAT binary)' : '';
	my ($out, $err) = ('', '');
	local $ENV{PGOPTIONS} =
	  '-c search_path=app,ulidx,public -c client_min_messages=warning';
	IPC::Run::run(
		[
			'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db),
			'-c', "COPY ($sql) TO STDOUT$fmt"
		],
		'<', \'', '>', \$out, '2>', \$err);
	diag("COPY in $db failed: $err") if $? != 0;
	return md5_hex($out);
}

# schema_dump DB, FILE: pg_dump --schema-only of DB into FILE, without \restrict / \unrestrict
# (they carry a random key per dump since 15.14)
sub schema_dump
{
	my ($db, $file) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'pg_dump', '--schema-only', '-d', $node->connstr($db) ],
		'<', \'', '>', \$out, '2>', \$err);
	$out = join('', grep { !/^\\(un)?restrict / } split /^/, $out);
	open my $fh, '>', $file or die "$file: $!";
	print $fh $out;
	close $fh;
	return $out;
}

my $schema_sql = <<'SQL';
SET client_min_messages = warning;
CREATE SCHEMA ulidx;
CREATE EXTENSION IF NOT EXISTS ulid SCHEMA ulidx;
CREATE EXTENSION IF NOT EXISTS amcheck;
CREATE SCHEMA app;
SET search_path = app, ulidx, public;

CREATE DOMAIN app.order_id AS ulid CHECK (VALUE > '00000000000000000000000000');

CREATE TABLE app.events (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    parent ulid,
    refs ulid[] NOT NULL DEFAULT '{}',
    backfill ulid DEFAULT gen_ulid('2001-02-03 04:05:06.789+00'),
    random_id ulid NOT NULL DEFAULT gen_random_ulid(),
    created timestamptz GENERATED ALWAYS AS (ulid_to_timestamp(id)) STORED,
    as_uuid uuid,
    note text,
    CONSTRAINT events_id_not_zero CHECK (id <> '00000000000000000000000000'::ulid)
);
CREATE INDEX events_parent ON app.events (parent);
CREATE UNIQUE INDEX events_random_id ON app.events (random_id);
CREATE INDEX events_created ON app.events (ulid_to_timestamp(id));
CREATE INDEX events_id_hash ON app.events USING hash (id);
CREATE INDEX events_id_brin ON app.events USING brin (id) WITH (pages_per_range = 2);
SELECT current_setting('server_version_num')::int >= 140000 AS brin_multi_bloom \gset
\if :brin_multi_bloom
CREATE INDEX events_random_bloom ON app.events USING brin (random_id ulid_bloom_ops);
CREATE INDEX events_random_multi ON app.events USING brin (random_id ulid_minmax_multi_ops);
\else
-- PostgreSQL 13 has no minmax-multi or bloom BRIN: a minmax one on random_id stands in
CREATE INDEX events_random_minmax ON app.events USING brin (random_id);
\endif

CREATE TABLE app.shards (
    id ulid NOT NULL DEFAULT gen_random_ulid(),
    n int NOT NULL,
    PRIMARY KEY (id)
) PARTITION BY HASH (id);
CREATE TABLE app.shards_0 PARTITION OF app.shards FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE app.shards_1 PARTITION OF app.shards FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE app.shards_2 PARTITION OF app.shards FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE app.shards_3 PARTITION OF app.shards FOR VALUES WITH (MODULUS 4, REMAINDER 3);
CREATE INDEX shards_id_hash ON app.shards USING hash (id);

CREATE TABLE app.links (
    event ulid NOT NULL REFERENCES app.events (id),
    shard ulid NOT NULL,
    ord app.order_id DEFAULT gen_ulid(),
    PRIMARY KEY (event, shard)
);

CREATE VIEW app.recent_events AS
    SELECT id, ulid_to_timestamp(id) AS at FROM app.events
    WHERE id >= '2000-01-01 00:00:00+00'::timestamptz::ulid AND id <= ulid_max('10000-01-01 00:00:00+00');
SQL

my $data_sql = <<SQL;
SET search_path = app, ulidx, public;
INSERT INTO events (note) SELECT 'row ' || g FROM generate_series(1, $ROWS) g;
UPDATE events SET parent = p.id
  FROM (SELECT id, row_number() OVER (ORDER BY id) AS r FROM events) p,
       (SELECT id, row_number() OVER (ORDER BY id) AS r FROM events) c
 WHERE events.id = c.id AND p.r = c.r - 1 AND c.r % 3 <> 0;
UPDATE events SET refs = ARRAY[parent, NULL, random_id]::ulid[] WHERE parent IS NOT NULL AND note LIKE '%7';
UPDATE events SET refs = ARRAY[id] WHERE note LIKE '%5';
UPDATE events SET as_uuid = id::uuid WHERE note NOT LIKE '%9';
INSERT INTO events (id, parent, refs, backfill, random_id, note) VALUES
    ('00000000000000000000000001', '00000000000000000000000000', '{00000000000000000000000000}', NULL,
     '00000000000000000000000000', 'smallest'),
    ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '{7ZZZZZZZZZZZZZZZZZZZZZZZZZ,NULL}', NULL,
     '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'largest'),
    ('01arz3ndektsv4rrffq69g5fav', NULL, '{}', DEFAULT, DEFAULT, 'lower case in');
INSERT INTO shards (n) SELECT g FROM generate_series(1, $ROWS) g;
INSERT INTO links (event, shard)
    SELECT e.id, s.id FROM (SELECT id, row_number() OVER (ORDER BY id) AS r FROM events) e
                      JOIN (SELECT id, row_number() OVER (ORDER BY id) AS r FROM shards) s USING (r)
    WHERE r % 4 = 0;
ANALYZE;
SQL

note "source database $SRC on " . $node->host . ':' . $node->port;
if (query($SRC, 'SHOW server_version_num') < 140000)
{
	note 'PostgreSQL '
	  . query($SRC, 'SHOW server_version')
	  . ' has no minmax-multi or bloom BRIN: random_id gets a minmax BRIN index';
}
{
	my ($rc, $out, $err) = $node->psql($SRC, $schema_sql . $data_sql);
	ok($rc == 0, 'source schema and data created')
	  or BAIL_OUT("source schema and data: $err");
}
note 'ulid '
  . query($SRC, "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")
  . ', '
  . query($SRC, 'SELECT version()');
foreach my $t (qw(events shards links))
{
	note "source app.$t: " . query($SRC, "SELECT count(*) FROM app.$t") . ' rows';
}

# ---------------------------------------------------------------------------------------------
note "copies: pg_dump -Fc + pg_restore -> $DB_FC; pg_dump | psql -> $DB_SQL";
$node->safe_psql('postgres', "CREATE DATABASE $DB_FC TEMPLATE template0");
$node->safe_psql('postgres', "CREATE DATABASE $DB_SQL TEMPLATE template0");

is( run_prog(
		[ 'pg_dump', '-Fc', '-f', "$work/src.dump", '-d', $node->connstr($SRC) ],
		\my $dump_out, "$work/pg_dump.err"),
	0,
	'pg_dump -Fc exit status');
is( run_prog(
		[
			'pg_restore', '--exit-on-error', '-d', $node->connstr($DB_FC),
			"$work/src.dump"
		],
		\my $restore_out,
		"$work/pg_restore.err"),
	0,
	'pg_restore exit status');
is(slurp_file("$work/pg_restore.err"), '', 'pg_restore wrote nothing to stderr');

is( run_prog(
		[ 'pg_dump', '-d', $node->connstr($SRC) ],
		"$work/src.sql", "$work/pg_dump_plain.err"),
	0,
	'pg_dump (plain) exit status');
is( run_prog(
		[
			'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($DB_SQL),
			'-f', "$work/src.sql"
		],
		"$work/psql_restore.out",
		"$work/psql_restore.err"),
	0,
	'pg_dump | psql (ON_ERROR_STOP) exit status');
is(slurp_file("$work/psql_restore.err"), '', 'psql restore wrote nothing to stderr');
ok(index(slurp_file("$work/src.sql"), 'ulidx.gen_ulid()') >= 0,
	"the dump names the extension's objects schema-qualified");

my $schema_src = schema_dump($SRC, "$work/schema.src");

my %TABLE_SQL = (
	events => 'SELECT * FROM app.events ORDER BY id',
	shards => 'SELECT tableoid::regclass::text AS part, * FROM app.shards ORDER BY id',
	links => 'SELECT * FROM app.links ORDER BY event, shard',
	recent_events => 'SELECT * FROM app.recent_events ORDER BY id',);

# check_copy DB, LABEL
sub check_copy
{
	my ($db, $l) = @_;
	note "$l (database $db)";

	my $schema = schema_dump($db, "$work/schema.$l");
	my $lines = () = $schema_src =~ /\n/g;
	if (!ok($schema eq $schema_src,
			"$l: schema-only dump identical to the source's ($lines lines)"))
	{
		my ($diff, $derr) = ('', '');
		IPC::Run::run([ 'diff', '-u', "$work/schema.src", "$work/schema.$l" ],
			'>', \$diff, '2>', \$derr);
		diag(join("\n", grep { defined } (split /\n/, $diff)[ 0 .. 39 ]));
	}
	foreach my $t (qw(events shards links recent_events))
	{
		my $n = query($db, "SELECT count(*) FROM app.$t");
		my $src_n = query($SRC, "SELECT count(*) FROM app.$t");
		my $src_md5 = table_md5($SRC, $TABLE_SQL{$t});
		my $dst_md5 = table_md5($db, $TABLE_SQL{$t});
		ok( $src_md5 eq $dst_md5 && $n eq $src_n,
			"$l: app.$t identical to the source ($n rows, md5 of ordered COPY text)")
		  ? note("$l: app.$t md5 $dst_md5")
		  : diag("$n rows, md5 $dst_md5 vs $src_n rows, md5 $src_md5");
	}
	# (binary arrays carry their element type's OID, which differs between databases: refs left out)
	my $bin =
	  'SELECT id, parent, backfill, random_id, created, as_uuid, note FROM app.events ORDER BY id';
	is(table_md5($db, $bin, 'binary'), table_md5($SRC, $bin, 'binary'),
		"$l: app.events identical in COPY BINARY too (ulid[] column left out)");

	foreach my $i (0 .. 3)
	{
		is( query(
				$db, "SELECT count(*) FROM app.shards_$i
                      WHERE NOT satisfies_hash_partition('app.shards'::regclass, 4, $i, id)"
			),
			'0',
			"$l: rows of app.shards_$i outside its hash partition");
	}
	is( query(
			$db, q{SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
                   JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = 'app' AND NOT (i.indisvalid AND i.indisready AND i.indislive)}
		),
		'0',
		"$l: invalid or not-ready indexes");
	my @btrees = split /\n/, query(
		$db, q{SELECT i.indexrelid::regclass FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
               JOIN pg_am am ON am.oid = ic.relam JOIN pg_namespace n ON n.oid = ic.relnamespace
               WHERE n.nspname = 'app' AND am.amname = 'btree' AND ic.relkind = 'i' ORDER BY 1});
	my $failed = 0;
	foreach my $idx (@btrees)
	{
		my @errors;
		query($db, "SELECT bt_index_parent_check('$idx'::regclass, true)", \@errors);
		if (@errors)
		{
			$failed++;
			fail("$l: bt_index_parent_check($idx): $errors[0]");
		}
	}
	cmp_ok(
		scalar(@btrees) - $failed, '==',
		scalar(@btrees),
		"$l: btree indexes passing bt_index_parent_check(heapallindexed) (of "
		  . scalar(@btrees) . ')');

	my $lookups = q{SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
                    SET LOCAL enable_tidscan = off; SET LOCAL enable_hashjoin = off;
                    SET LOCAL enable_mergejoin = off; SET LOCAL enable_material = off;};
	is( query(
			$db, "BEGIN; ALTER TABLE app.events DROP CONSTRAINT events_pkey CASCADE; $lookups
                  SELECT count(*) FROM app.events a
                  WHERE NOT EXISTS (SELECT FROM app.events b WHERE b.id = a.id AND b.ctid = a.ctid);
                  ROLLBACK;"),
		'0',
		"$l: app.events rows not found through events_id_hash");
	like(
		query(
			$db, "BEGIN; ALTER TABLE app.events DROP CONSTRAINT events_pkey CASCADE; $lookups
                  EXPLAIN (COSTS OFF) SELECT count(*) FROM app.events a
                  WHERE NOT EXISTS (SELECT FROM app.events b WHERE b.id = a.id AND b.ctid = a.ctid);
                  ROLLBACK;"),
		qr/Index Scan using events_id_hash/,
		"$l: (that lookup is an index scan of events_id_hash)");
	is( query(
			$db, "BEGIN; ALTER TABLE app.shards DROP CONSTRAINT shards_pkey; $lookups
                  SELECT count(*) FROM app.shards a
                  WHERE NOT EXISTS (SELECT FROM app.shards b WHERE b.id = a.id AND b.tableoid = a.tableoid
                                                               AND b.ctid = a.ctid);
                  ROLLBACK;"),
		'0',
		"$l: app.shards rows not found through the partitions' hash indexes");
	my $brin_sql = q{BEGIN; ALTER TABLE app.events DROP CONSTRAINT events_pkey CASCADE;
                     DROP INDEX app.events_id_hash, app.events_random_id, app.events_created;
                     SET LOCAL enable_seqscan = off;};
	my $total = query($db, 'SELECT count(*) FROM app.events');
	is( query(
			$db, "$brin_sql SELECT count(*) FROM app.events
                  WHERE id BETWEEN '00000000000000000000000000' AND '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'; ROLLBACK;"
		),
		$total,
		"$l: app.events rows found by a minmax BRIN range scan on id (of $total)");
	is( query(
			$db, "$brin_sql SELECT count(*) FROM (SELECT random_id FROM app.events ORDER BY id LIMIT 300) s
                  WHERE NOT EXISTS (SELECT FROM app.events e WHERE e.random_id = s.random_id); ROLLBACK;"
		),
		'0',
		"$l: 300 random_id values not found through the bloom / minmax-multi BRIN indexes (minmax on 13)"
	);
	like(
		query(
			$db, "$brin_sql EXPLAIN (COSTS OFF) SELECT count(*) FROM (SELECT random_id FROM app.events ORDER BY id LIMIT 300) s
                  WHERE NOT EXISTS (SELECT FROM app.events e WHERE e.random_id = s.random_id); ROLLBACK;"
		),
		qr/Bitmap Index Scan on events_random_(bloom|multi|minmax)/,
		"$l: (those lookups are bitmap scans of a BRIN index on random_id)");

	# defaults after the restore
	is( query(
			$db, q{INSERT INTO app.events (note) VALUES ('after restore')
                   RETURNING (id IS NOT NULL AND random_id IS NOT NULL AND refs = '{}'
                              AND ulidx.ulid_to_timestamp(backfill) = '2001-02-03 04:05:06.789+00'
                              AND created = ulidx.ulid_to_timestamp(id))::text}
		),
		'true',
		"$l: app.events defaults (gen_ulid(), gen_random_ulid(), gen_ulid(timestamptz), '{}', generated column) work"
	);
	is( query(
			$db, q{INSERT INTO app.shards (n) SELECT g FROM generate_series(1, 1000) g;
                   SELECT count(*) FROM app.shards WHERE n <= 1000}),
		'2000',
		"$l: app.shards rows with n <= 1000 after 1000 more DEFAULT gen_random_ulid() inserts");
	is( query(
			$db, q{INSERT INTO app.links (event, shard)
                   SELECT id, ulidx.gen_random_ulid() FROM app.events ORDER BY id LIMIT 10;
                   SELECT count(*) FROM app.links WHERE ord IS NULL}),
		'0',
		"$l: app.links rows with a NULL domain-typed DEFAULT gen_ulid() column");
	is( query(
			$db, q{SELECT (SELECT count(*) - count(DISTINCT id) FROM app.events)
                          + (SELECT count(*) - count(DISTINCT id) FROM app.shards)}),
		'0',
		"$l: duplicate ids in app.events / app.shards after the new inserts");
	return;
}

check_copy($DB_FC, 'custom');
check_copy($DB_SQL, 'plain');

done_testing();
