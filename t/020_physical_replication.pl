# Physical (streaming) replication: a primary and a hot standby of its own, the standby made by the
# recipe the docs quote (test/suites/recipes/standby.sh, pg_basebackup -R -X stream, run verbatim);
# after replay, index scans of ulid b-tree and hash indexes on the standby return exactly the
# primary's rows, amcheck passes there and gen_ulid() runs on the hot standby.
#
# On the primary: a table with a ulid primary key (DEFAULT gen_ulid() and backfilled gen_ulid(ts)),
# a second ulid column with a hash index; a bulk insert, a delete of every 10th row and a VACUUM
# (index page deletions travel through WAL too), then another insert. The standby is the recipe's
# pg_basebackup of the running primary (PRIMARY_HOST, PRIMARY_PORT and STANDBY_DATA set, run as the
# server's OS user, the user that runs this test), taken into the test framework with
# init_from_backup and keeping the connection to the primary that -R wrote. After the standby has
# replayed up to the primary's WAL position (pg_last_wal_replay_lsn), with enable_seqscan,
# enable_bitmapscan and hash/merge joins off on the standby:
#   - the plans are index scans (EXPLAIN shows the primary key and the hash index);
#   - a full scan in id order, 500 point lookups, time ranges and hash-index lookups return exactly
#     the primary's rows; amcheck's bt_index_check passes on the standby; gen_ulid() runs there.
# Waiting for the WAL sender and for replay is bounded by the framework's poll_query_until (its
# default timeout, PG_TEST_TIMEOUT_DEFAULT where the major has it): a limit, not an assertion; the
# state reached is then checked.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $ROWS = 200000;

# query / sql_ok NODE, SQL: t/lib/UlidTest.pm's, on NODE
sub query { return node_query(@_); }
sub sql_ok { return node_sql_ok(@_); }

note('setup: primary + streaming standby');
my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
# allows_streaming shrinks these for small tests; this one loads 200,000 rows: initdb's defaults
$primary->append_conf('postgresql.conf', "shared_buffers = 128MB\nmax_wal_size = 1GB");
must($primary->start(fail_ok => 1), 'start primary');
note(query($primary, 'SELECT version()'));

my $done = sql_ok(
	$primary, q{
	CREATE EXTENSION ulid; CREATE EXTENSION amcheck;
	CREATE TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid NOT NULL,
	                     n int NOT NULL, payload text NOT NULL);
	CREATE INDEX events_ref_hash ON events USING hash (ref);
});
must($done,
	'primary: extensions ulid and amcheck, table events (ulid primary key, ulid column with a hash index)'
);

# pg_basebackup as docs/scaling-out.md shows it: test/suites/recipes/standby.sh, verbatim, into a
# directory the framework then makes the standby's data directory (its own port and socket added)
{
	local $ENV{PRIMARY_HOST} = $primary->host;
	local $ENV{PRIMARY_PORT} = $primary->port;
	local $ENV{STANDBY_DATA} = $primary->backup_dir . '/standby';
	must(
		system_log('bash', '-euo', 'pipefail', 'test/suites/recipes/standby.sh') == 0,
		'standby: recipes/standby.sh (pg_basebackup -R -X stream from the primary, as the server\'s OS user)'
	);
}
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'standby');
must($standby->start(fail_ok => 1), 'start standby');
is(query($standby, 'SELECT pg_is_in_recovery()'), 't', 'standby: pg_is_in_recovery()');

# the WAL sender shows up once the standby has connected
my $senders = "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'";
$primary->poll_query_until('postgres', $senders, '1');
is(query($primary, $senders), '1', 'primary: streaming WAL senders');

note('bulk insert, delete, VACUUM and insert on the primary');
$done = sql_ok(
	$primary, qq{
	INSERT INTO events (ref, n, payload)
		SELECT gen_random_ulid(), g, 'live ' || g FROM generate_series(1, $ROWS / 2) g;
	INSERT INTO events (id, ref, n, payload)
		SELECT gen_ulid(timestamptz '2025-06-01 00:00:00+00' + g * interval '25 seconds'),
		       gen_random_ulid(), g + $ROWS / 2, 'backfill ' || g
		FROM generate_series(1, $ROWS / 2) g;
});
must($done,
	"primary: $ROWS rows (half DEFAULT gen_ulid(), half backfilled over 29 days)");

$done = sql_ok(
	$primary, q{
	CREATE TABLE deleted_ids AS SELECT id FROM events WHERE n % 10 = 0;
	DELETE FROM events WHERE n % 10 = 0;
});
$done &&= sql_ok($primary, 'VACUUM events');
$done &&= sql_ok(
	$primary, qq{
	INSERT INTO events (ref, n, payload)
		SELECT gen_random_ulid(), $ROWS + g, 'after vacuum ' || g FROM generate_series(1, 10000) g;
});
must($done,
	'primary: delete every 10th row (ids kept in deleted_ids), VACUUM, insert 10000 more');
my $expected = $ROWS - $ROWS / 10 + 10000;
is(query($primary, 'SELECT count(*) FROM events'), $expected, 'primary: rows');

my $lsn = query($primary, 'SELECT pg_current_wal_lsn()');
my $replayed = "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn";
my $start = time();
$standby->poll_query_until('postgres', $replayed);
my $waited = time() - $start;
is(query($standby, $replayed), 't',
	"standby: replayed up to the primary's WAL position $lsn (after $waited s)");

note('index scans on the standby');

# qs SQL: on the standby, with only index scans allowed
sub qs
{
	my ($sql) = @_;
	return query($standby,
		"SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_hashjoin = off;
		 SET enable_mergejoin = off; $sql");
}

my $digest =
  q{count(*) || ' ' || md5(string_agg(id::text || ':' || ref::text || ':' || n || ':' || payload, ',' ORDER BY id))};
like(
	qs('EXPLAIN (COSTS OFF) SELECT * FROM events ORDER BY id'),
	qr/Index Scan using events_pkey on events/,
	'standby plan for ORDER BY id: the primary key index');
my $on_primary = query($primary, "SELECT $digest FROM events");
my $on_standby = qs("SELECT $digest FROM (SELECT * FROM events ORDER BY id) s");
is($on_standby, $on_primary,
	'standby: full scan in id order through the primary key equals the primary\'s rows ('
	  . (split / /, $on_primary)[0]
	  . ' rows)');

# 500 point lookups: the ids and rows sampled on the primary, looked up one by one on the standby
my $sample = query(
	$primary, q{
	SELECT string_agg(format('(%L::ulid, %L::ulid, %s, %L)', id, ref, n, payload), ',')
	FROM (SELECT * FROM events ORDER BY md5(id::text) LIMIT 500) s});
like(
	qs("EXPLAIN (COSTS OFF) SELECT * FROM (VALUES $sample) v(id, ref, n, payload) JOIN events e USING (id)"
	),
	qr/Index Scan using events_pkey on events e/,
	'standby plan for point lookups: nested loop over the primary key index');
is( qs( "SELECT count(*) FROM (VALUES $sample) v(id, ref, n, payload)
		 JOIN events e ON e.id = v.id AND e.ref = v.ref AND e.n = v.n AND e.payload = v.payload"
	),
	'500',
	'standby: point lookups of 500 sampled ids returning the primary\'s row');
like(
	qs("EXPLAIN (COSTS OFF) SELECT * FROM (VALUES $sample) v(id, ref, n, payload) JOIN events e USING (ref)"
	),
	qr/Index Scan using events_ref_hash on events e/,
	'standby plan for lookups by ref: the hash index');
# joined on ref alone, the query whose plan was checked (with e.id = v.id in the join condition the
# planner takes the primary key instead), the rest of the row compared after the join
is( qs( "SELECT count(*) FILTER (WHERE e.id = v.id AND e.n = v.n)
		 FROM (VALUES $sample) v(id, ref, n, payload) JOIN events e USING (ref)"),
	'500',
	'standby: lookups of 500 sampled refs through the hash index returning the primary\'s row');
is(qs('SELECT count(*) FROM deleted_ids d JOIN events e USING (id)'),
	'0',
	'standby: deleted ids (every 10th row, kept in deleted_ids) found through the primary key');
is(qs('SELECT count(*) FROM deleted_ids'), $ROWS / 10, 'standby: deleted_ids rows');

for my $range (
	[ '2025-06-03 00:00:00+00', '2025-06-04 00:00:00+00' ],
	[ '2025-06-10 12:00:00+00', '2025-06-10 12:30:00+00' ],
	[ '2025-06-28 00:00:00+00', '2100-01-01 00:00:00+00' ],
	[ '2000-01-01 00:00:00+00', '2000-01-02 00:00:00+00' ])
{
	my ($lo, $hi) = @$range;
	my $where = "id >= timestamptz '$lo'::ulid AND id < timestamptz '$hi'::ulid";
	my $plan = qs("EXPLAIN (COSTS OFF) SELECT * FROM events WHERE $where ORDER BY id");
	my $p = query($primary, "SELECT coalesce($digest, '0') FROM events WHERE $where");
	my $s = qs(
		"SELECT coalesce($digest, '0') FROM (SELECT * FROM events WHERE $where ORDER BY id) s");
	my $good =
	  $plan =~ /Index Scan using events_pkey on events/ && $p ne '' && $p eq $s;
	ok($good,
		"standby: range [$lo, $hi) through the primary key index equals the primary's rows ("
		  . (split / /, $p)[0]
		  . ' rows)')
	  or diag("standby [$s] vs primary [$p]; plan:\n$plan");
}
is( qs( "SELECT count(*) FROM events WHERE id >= timestamptz '2025-06-01+00'::ulid
		 AND id < timestamptz '2025-07-01+00'::ulid"),
	$ROWS / 2 - $ROWS / 20,
	'standby: rows in the backfilled month (range scan)');
ok( sql_ok($standby, "SELECT bt_index_check('events_pkey', true)"),
	'standby: bt_index_check(events_pkey, heapallindexed) passes');
like(
	query($standby, 'SELECT gen_ulid()'),
	qr/^[0-7][0-9A-Z]{25}$/,
	'standby: gen_ulid() runs on the hot standby');

done_testing();
