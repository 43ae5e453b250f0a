# Citus: a coordinator and two workers of its own on loopback, running the recipes
# test/suites/recipes/citus_*.sql verbatim (docs/scaling-out.md, "Citus", quotes them), with the
# ulid key as the distribution column.
#
# Runs when Citus is installed for the server under test; otherwise the whole file is skipped (plan
# skip_all, with the reason): Citus is in no registry here, and scripts/test builds the release
# pinned in scripts/pins/citus-version (scripts/build/citus-build) for the majors that file names; on a major
# that release does not support the reason says so. Three servers of the major under test, each with
# shared_preload_libraries = 'citus' and listening on 127.0.0.1 (Citus connects to the workers by
# host and port); the workers run with TimeZone = 'Asia/Tokyo', the coordinator with UTC and
# citus.shard_count = 8. Checks:
#   - CREATE EXTENSION ulid on the coordinator creates it on the worker already added; citus_add_node
#     creates it on a worker added later (same version, same schema);
#   - citus_distribute.sql: orders distributed by its ulid key (DEFAULT gen_ulid()), order_lines
#     colocated, shops a reference table; 2,500 orders on both workers, all unique;
#   - a join of orders and order_lines on the key runs per shard, without repartitioning;
#   - a point lookup is routed to one shard, the ulid condition in the worker SQL; a time range
#     (ulid_min/ulid_max, timestamptz::ulid) goes to every shard with the ulid conditions (folded to
#     constants) in the worker SQL, rows equal a local copy's; a now()-based bound is sent as is;
#   - the reference table is identical on every node and joins;
#   - where gen_ulid() runs: one coordinator session's single-row INSERTs, multi-row VALUES, COPY and
#     INSERT ... SELECT from a local source get ids in insertion order (made on the coordinator);
#     INSERT ... SELECT from a distributed table calls gen_ulid() in the worker SQL (unique ids);
#   - UPDATE ... SET receipt = gen_ulid() / gen_random_ulid() is refused; citus_new_receipts.sql
#     (MATERIALIZED CTE) fills every receipt with distinct values;
#   - a uuid-keyed table holding the same bytes puts every row in the shard of the same hash range,
#     but cannot be colocated with the ulid table;
#   - rows per day: date_trunc('day', ulid_to_timestamp(id)) follows the workers' TimeZone (Tokyo
#     midnights), date_trunc(..., 'UTC') and date_bin equal the local copy's UTC days, and so do both
#     queries of citus_days.sql;
#   - partition_by_month.sql's events, distributed on the same ulid key: partitions distributed
#     (also those made later by create_month_partitions), rows in their month, constant bounds
#     pruned to one partition in the worker plan; DETACH ... CONCURRENTLY refused, plain DETACH
#     and DROP of a month remove its shards and keep the other months' rows;
#   - undistribute_table gives back a local table with the same rows.
# About 45 s.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $recipes = 'test/suites/recipes';
my $backfill = 2000;    # orders over 10 days, one every 7 minutes 12 seconds from 2025-03-01 00:00 UTC
my $live = 500;         # orders with DEFAULT gen_ulid()
my $total = $backfill + $live;

# Citus installed for the server under test (its control file and library), or the reason it is not
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $pg_version = pg_config_value('--version', $pg_config);
my $sharedir   = pg_config_value('--sharedir', $pg_config);
my $pkglibdir  = pg_config_value('--pkglibdir', $pg_config);
my $citus_control = "$sharedir/extension/citus.control";
if (!-f $citus_control || !-f "$pkglibdir/citus.so")
{
	# version source sha256 supports built-for (scripts/pins/citus-version)
	open my $fh, '<', 'scripts/pins/citus-version'
	  or BAIL_OUT("scripts/pins/citus-version: $!");
	my ($pin, $supports, $built_for);
	while (<$fh>)
	{
		next if /^#/;
		my @f = split;
		next if @f < 5;
		($pin, $supports, $built_for) = @f[ 0, 3, 4 ];
		last;
	}
	close $fh;
	my ($lo, $hi) = split /-/, $supports;
	my ($major) = $pg_version =~ /^PostgreSQL (\d+)/;
	plan skip_all => ($major < $lo || $major > $hi)
	  ? "Citus $pin (scripts/pins/citus-version) supports PostgreSQL $supports, not $major"
	  : "Citus is not installed for $pg_version (no $citus_control): it is in no registry here, and "
	  . "scripts/test builds Citus $pin for PostgreSQL $built_for only "
	  . '(scripts/pins/citus-version; scripts/build/citus-build MAJOR builds it for another)';
}

my %node;

# query(NODE, SQL): psql's output on NODE (one session, every result), '' and the error as a
# diagnostic on an error
sub query
{
	my ($name, $sql) = @_;
	return node_query($node{$name}, $sql);
}

# c(SQL): query on the coordinator
sub c
{
	return query('coord', $_[0]);
}

# c_ok(SQL): true when SQL ran on the coordinator without an error
sub c_ok
{
	return node_sql_ok($node{coord}, $_[0]);
}

# c_err(SQL): the coordinator's output and messages (stdout and stderr together), for a statement
# that must fail
sub c_err
{
	my ($rc, $out, $err) = $node{coord}->psql('postgres', $_[0]);
	return "$out\n$err";
}

# c_file(FILE, psql options...): psql -f FILE on the coordinator: its output, undef on an error
sub c_file
{
	my ($file, @extra) = @_;
	my ($rc, $out, $err) =
	  $node{coord}->psql('postgres', '', extra_params => [ @extra, '-f', $file ]);
	if ($rc != 0)
	{
		diag("coord: $file failed: $err");
		return undef;
	}
	return $out;
}

# per_worker(TABLE, WHERE): the rows of TABLE matching WHERE on worker 1 and on worker 2, from the
# shard placements
sub per_worker
{
	my ($table, $where) = @_;
	return map {
		c(      "SELECT coalesce(sum(result::bigint), 0) FROM run_command_on_placements('$table',
               \$\$SELECT count(*) FROM %s WHERE $where\$\$) WHERE nodeport = "
			  . $node{$_}->port)
	} qw(w1 w2);
}

# both_positive(A, B): both numbers above 0
sub both_positive
{
	return !grep { !defined $_ || $_ !~ /^[1-9][0-9]*$/ } @_;
}

# ordered(TABLE, WHERE): rows whose n is not above the previous row's n in id order (0 = ids in n
# order)
sub ordered
{
	my ($table, $where) = @_;
	return c(
		"SELECT count(*) FROM (SELECT n, lag(n) OVER (ORDER BY id) AS prev FROM $table WHERE $where) s WHERE n <= prev"
	);
}

# ext(NODE): "<version> <schema>" of ulid on NODE
sub ext
{
	return query($_[0],
		"SELECT extversion || ' ' || extnamespace::regnamespace FROM pg_extension WHERE extname = 'ulid'"
	);
}

note 'setup: coordinator + w1 + w2 on 127.0.0.1';
for my $name (qw(coord w1 w2))
{
	$node{$name} = PostgreSQL::Test::Cluster->new($name);
	must_run("$name: initdb",
		sub { $node{$name}->init(extra => [ '--locale=C.UTF-8', '--encoding=UTF8' ]) });
	$node{$name}->append_conf(
		'postgresql.conf', "listen_addresses = '127.0.0.1'
shared_preload_libraries = 'citus'
max_prepared_transactions = 100
citus.node_conninfo = 'sslmode=disable'
citus.enable_statistics_collection = off
");
}
$node{coord}->append_conf('postgresql.conf',
	"TimeZone = 'UTC'\ncitus.shard_count = 8\n");
$node{$_}->append_conf('postgresql.conf', "TimeZone = 'Asia/Tokyo'\n") for qw(w1 w2);
for my $name (qw(coord w1 w2))
{
	must($node{$name}->start(fail_ok => 1)
		  && node_sql_ok($node{$name}, 'CREATE EXTENSION citus'),
		"$name: start, CREATE EXTENSION citus");
}
note c('SELECT version()');
note c('SELECT citus_version()');

note "what CREATE EXTENSION ulid on the coordinator does to the workers";
must(
	c_ok(
		"SELECT citus_set_coordinator_host('127.0.0.1', " . $node{coord}->port . ");
         SELECT citus_add_node('127.0.0.1', " . $node{w1}->port . ')'),
	'coordinator host set, w1 added');
cmp_num(query('w1', "SELECT count(*) FROM pg_extension WHERE extname = 'ulid'"),
	'==', 0, 'w1 before CREATE EXTENSION ulid on the coordinator: ulid not installed');
must(c_ok('CREATE EXTENSION ulid'), 'coordinator: CREATE EXTENSION ulid');
my $ext = ext('coord');
is(ext('w1'), $ext,
	"w1 (added before): ulid created there too, same version and schema ($ext)");
cmp_num(query('w2', "SELECT count(*) FROM pg_extension WHERE extname = 'ulid'"),
	'==', 0, 'w2 before citus_add_node: ulid not installed');
must(c_ok("SELECT citus_add_node('127.0.0.1', " . $node{w2}->port . ')'),
	'citus_add_node(w2)');
is(ext('w2'), $ext,
	'w2 (added after): citus_add_node created ulid there, same version and schema');

note "$recipes/citus_distribute.sql";
must(defined c_file("$recipes/citus_distribute.sql", '-o', '/dev/null'),
	'citus_distribute.sql runs');
is( c(
		"SELECT string_agg(logicalrelid::text || ':' || partmethod::text || ':' ||
                            coalesce(column_to_column_name(logicalrelid, partkey), '-') || ':' ||
                            (colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'orders'::regclass)),
                            ' ' ORDER BY logicalrelid::text)
          FROM pg_dist_partition WHERE logicalrelid::text IN ('orders', 'order_lines', 'shops')"
	),
	'order_lines:h:order_id:true orders:h:id:true shops:n:-:false',
	'orders hash-distributed on id, order_lines colocated with it, shops a reference table');
must(
	c_ok(
		"INSERT INTO shops (name) VALUES ('north'), ('south'), ('east');
    INSERT INTO orders (id, shop_id, total)
    SELECT gen_ulid(timestamptz '2025-03-01 00:00:00+00' + g * interval '432 seconds'),
           (SELECT id FROM shops ORDER BY name OFFSET g % 3 LIMIT 1), g
    FROM generate_series(0, $backfill - 1) g;
    INSERT INTO orders (shop_id, total)
    SELECT (SELECT id FROM shops ORDER BY name OFFSET g % 3 LIMIT 1), g FROM generate_series(1, $live) g;
    INSERT INTO order_lines SELECT id, k, 'item ' || k FROM orders, generate_series(1, 2) k;
    CREATE TABLE orders_local AS SELECT * FROM orders"),
	"3 shops, $backfill backfilled orders (gen_ulid(timestamptz)), $live with DEFAULT gen_ulid(), 2 lines each"
);
cmp_num(c('SELECT count(*) FROM orders'),
	'==', $total, 'orders seen through the coordinator');
cmp_num(c('SELECT count(DISTINCT id) FROM orders'), '==', $total, 'distinct ids');
my @pw = per_worker('orders', 'true');
ok(both_positive(@pw) && $pw[0] + $pw[1] == $total,
	"orders stored on w1 and w2, both > 0, summing to $total: @pw");
@pw = per_worker('orders', "id >= ulid_min(now() - interval '1 hour')");
ok(both_positive(@pw),
	"the $live DEFAULT gen_ulid() orders (same moment) spread over both workers: @pw");
cmp_num(
	c(
		"SELECT count(*) FROM orders_local WHERE NOT EXISTS (SELECT FROM pg_dist_partition WHERE logicalrelid = 'orders_local'::regclass)"
	),
	'==', $total,
	'local copy orders_local on the coordinator (not distributed), rows');

note 'colocated join, point lookups, time ranges';
my $p = c(
	'EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id'
);
like($p, qr/Task Count: 8/,
	'join on the ulid key: one task per shard (Task Count: 8), a join inside each');
unlike($p, qr/repartition|MapMergeJob|Map Task/i,
	'join on the ulid key: no repartitioning');
cmp_num(
	c(
		'SET citus.enable_repartition_joins = off; SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id'
	),
	'==', 2 * $total,
	'rows of the colocated join (citus.enable_repartition_joins off)');
my $id = c('SELECT id FROM orders_local ORDER BY total, id LIMIT 1 OFFSET 777');
$p = c("EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM orders WHERE id = '$id'");
like($p, qr/\QTask Count: 1\E/,
	'point lookup: routed to one shard (Task Count: 1)');
like(
	$p,
	qr/\Qid OPERATOR(public.=) '$id'::public.ulid\E/,
	"point lookup: the worker SQL has id OPERATOR(public.=) '$id'::public.ulid");
is( c("SELECT total FROM orders WHERE id = '$id'"),
	c("SELECT total FROM orders_local WHERE id = '$id'"),
	'point lookup: the row');
my $lo = c("SELECT ulid_min('2025-03-03 06:00:00+00')");
my $hi = c("SELECT ulid_max('2025-03-05 18:00:00+00')");
my $range =
  "id >= ulid_min('2025-03-03 06:00:00+00') AND id <= ulid_max('2025-03-05 18:00:00+00')";
$p = c("EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM orders WHERE $range");
like($p, qr/\QTask Count: 8\E/,
	'time range (ulid_min/ulid_max): sent to every shard');
like(
	$p,
	qr/\Q((id OPERATOR(public.>=) '$lo'::public.ulid) AND (id OPERATOR(public.<=) '$hi'::public.ulid))\E/,
	'time range: the worker SQL has the bounds folded to ulid constants');
my $want = c("SELECT count(*) FROM orders_local WHERE $range");
cmp_num($want, '>', 0, 'rows in the time range (local copy)');
is(c("SELECT count(*) FROM orders WHERE $range"),
	$want, "time range: rows through Citus = the local copy's");
is( c(
		"SELECT count(*) FROM orders WHERE id >= '2025-03-03 06:00:00+00'::timestamptz::ulid
                                        AND id < '2025-03-05 18:00:00.001+00'::timestamptz::ulid"
	),
	$want,
	'time range with timestamptz::ulid casts: the same rows');
$p = c(
	"EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM orders WHERE id >= ulid_min(now() - interval '1 hour')"
);
like(
	$p,
	qr/\Q(id OPERATOR(public.>=) public.ulid_min((now() OPERATOR(pg_catalog.-) '01:00:00'::interval)))\E/,
	'a now()-based bound is sent to the workers as it is (evaluated there)');

note 'the reference table';
is( c(
		"SELECT count(*) || ' placements, ' || count(DISTINCT result) || ' distinct' FROM run_command_on_placements('shops',
          \$\$SELECT count(*) || ' ' || md5(string_agg(id::text || name, ',' ORDER BY id)) FROM %s\$\$)"
	),
	'3 placements, 1 distinct',
	'shops: 3 placements (coordinator and both workers), identical rows');
cmp_num(c('SELECT count(*) FROM orders o JOIN shops s ON s.id = o.shop_id'),
	'==', $total, 'orders joined to shops');

note 'where gen_ulid() runs';
must(
	c_ok(
		"CREATE TABLE seq_test (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int NOT NULL, how text NOT NULL);
    SELECT create_distributed_table('seq_test', 'id', colocate_with => 'orders')"),
	'seq_test (id ulid PRIMARY KEY DEFAULT gen_ulid(), n, how) colocated with orders');
must(
	c_ok(
		join('',
			map { "INSERT INTO seq_test (n, how) VALUES ($_, 'single');\n" } 1 .. 200)),
	'one session: 200 single-row INSERTs');
must(
	c_ok(
		'INSERT INTO seq_test (n, how) VALUES '
		  . join(',', map { "($_, 'values')" } 1 .. 500)),
	'one multi-row VALUES of 500 rows');
must(
	c_ok(
		"COPY seq_test (n, how) FROM STDIN;\n"
		  . join('', map { "$_\tcopy\n" } 1 .. 1000) . "\\.\n"),
	'COPY of 1000 rows');
must(
	c_ok(
		"INSERT INTO seq_test (n, how) SELECT g, 'local' FROM generate_series(1, 1000) g"),
	'INSERT ... SELECT of 1000 rows from generate_series (a local source)');
for my $how (qw(single values copy local))
{
	cmp_num(ordered('seq_test', "how = '$how'"),
		'==', 0, "$how: rows whose id is not above the previous row's (in n order)");
}
@pw = per_worker('seq_test', "how = 'copy'");
ok(both_positive(@pw), "COPY rows on both workers: @pw");
$p = c(
	"EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO seq_test (n, how) SELECT g, 'x' FROM generate_series(1, 3) g"
);
like($p, qr/\Qpull to coordinator\E/,
	'INSERT ... SELECT from a local source: pulled to the coordinator');
like($p, qr/\QOutput: gen_ulid(), g\E/,
	"INSERT ... SELECT from a local source: gen_ulid() in the coordinator's plan");
must(
	c_ok(
		"CREATE TABLE seq_copy (id ulid NOT NULL DEFAULT gen_ulid(), src_id ulid NOT NULL, n int NOT NULL);
    SELECT create_distributed_table('seq_copy', 'src_id', colocate_with => 'orders')"),
	'seq_copy (id ulid DEFAULT gen_ulid(), src_id ulid, n) distributed on src_id, colocated');
$p = c(
	"EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO seq_copy (src_id, n) SELECT id, n FROM seq_test WHERE how = 'local'"
);
like($p, qr/\QSELECT public.gen_ulid() AS id\E/,
	'INSERT ... SELECT from a distributed table: gen_ulid() in the worker SQL');
must(
	c_ok(
		"INSERT INTO seq_copy (src_id, n) SELECT id, n FROM seq_test WHERE how = 'local'"),
	'INSERT ... SELECT of 1000 rows from the distributed seq_test');
cmp_num(c('SELECT count(DISTINCT id) FROM seq_copy'),
	'==', 1000, 'ids made on the workers: distinct (of 1000)');
note 'ids made on the workers out of n order: '
  . ordered('seq_copy', 'true')
  . ' of 999 neighbours (shards run in parallel)';

note "UPDATE ... SET receipt = gen_ulid() and $recipes/citus_new_receipts.sql";
for my $f (qw(gen_ulid gen_random_ulid))
{
	like(
		c_err("UPDATE orders SET receipt = $f()"),
		qr/\Qfunctions used in UPDATE queries on distributed tables must not be VOLATILE\E/,
		"UPDATE orders SET receipt = $f() is refused");
}
must(defined c_file("$recipes/citus_new_receipts.sql"),
	'citus_new_receipts.sql runs');
is(c('SELECT count(receipt) || \' \' || count(DISTINCT receipt) FROM orders'),
	"$total $total", 'receipts: every order has one, all distinct');

note 'a uuid table holding the same bytes';
must(
	c_ok(
		"CREATE TABLE uorders (id uuid PRIMARY KEY);
    SELECT create_distributed_table('uorders', 'id');
    INSERT INTO uorders SELECT id::uuid FROM orders_local"),
	"uorders (id uuid PRIMARY KEY) distributed, the orders' ids as uuid");
cmp_num(
	c(
		"SELECT count(*) FROM orders_local o
          WHERE (SELECT shardminvalue FROM pg_dist_shard WHERE shardid = get_shard_id_for_distribution_column('orders', o.id))
             IS DISTINCT FROM
                (SELECT shardminvalue FROM pg_dist_shard WHERE shardid = get_shard_id_for_distribution_column('uorders', o.id::uuid))"
	),
	'==', 0,
	'rows whose shard hash range differs between orders and uorders (worker_hash alike)');
like(
	c_err(
		"SELECT update_distributed_table_colocation('uorders', colocate_with => 'orders')"),
	qr/\Qcannot colocate tables orders and uorders\E/,
	'uorders cannot be colocated with orders (distribution column types differ)');

note 'rows per day (coordinator TimeZone UTC, workers Asia/Tokyo)';
my $local_days = c(
	"SELECT string_agg(d || '=' || n, ' ' ORDER BY d) FROM (SELECT date_trunc('day', ulid_to_timestamp(id)) AS d, count(*) AS n FROM orders_local GROUP BY 1) s"
);
is( c(
		"SELECT string_agg(DISTINCT to_char(d, 'HH24:MI'), ' ') FROM (SELECT date_trunc('day', ulid_to_timestamp(id)) AS d FROM orders GROUP BY 1) s"
	),
	'15:00',
	"date_trunc('day', ulid_to_timestamp(id)) on the workers: days start at 15:00 UTC (Tokyo midnight)"
);
is( c(
		"SELECT string_agg(d || '=' || n, ' ' ORDER BY d) FROM (SELECT date_trunc('day', ulid_to_timestamp(id), 'UTC') AS d, count(*) AS n FROM orders GROUP BY 1) s"
	),
	$local_days,
	"date_trunc('day', ulid_to_timestamp(id), 'UTC') through Citus = the local copy's UTC days");
is( c(
		"SELECT string_agg(d || '=' || n, ' ' ORDER BY d) FROM (SELECT date_bin('1 day', ulid_to_timestamp(id), '2000-01-01 00:00:00+00') AS d, count(*) AS n FROM orders GROUP BY 1) s"
	),
	$local_days,
	"date_bin('1 day', ulid_to_timestamp(id), '2000-01-01 00:00:00+00') through Citus = the same");
# the two queries as docs/scaling-out.md shows them (recipes/citus_days.sql): each gives the local
# copy's UTC days
my $local_rows = c(
	"SELECT date_trunc('day', ulid_to_timestamp(id), 'UTC') AS day, count(*) FROM orders_local GROUP BY 1 ORDER BY 1"
);
is(c_file("$recipes/citus_days.sql"),
	"$local_rows\n$local_rows",
	"recipes/citus_days.sql through Citus: both queries give the local copy's UTC days");

note "distributed and partitioned by month on the same ulid key ($recipes/partition_by_month.sql)";
must(
	defined c_file("$recipes/partition_by_month.sql")
	  && c_ok(
		"CALL create_month_partitions('events', 3, since => now() - interval '2 months')")
	  && c_ok("SELECT create_distributed_table('events', 'id')"),
	"partition_by_month.sql, months from 2 back, create_distributed_table('events', 'id')");
my $s1 = c(
	"SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00'"
);
my $s0 = c(
	"SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC'), 'YYYY-MM-DD') || ' 00:00:00+00'"
);
my $m1 = c(
	"SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month', 'YYYYMM')"
);
must(
	c_ok(
		"INSERT INTO events (id, kind)
    SELECT gen_ulid(now() - interval '1 second' - interval '59 days' * (g::float8 / 1000)), 'backfill'
    FROM generate_series(0, 999) g;
    INSERT INTO events (kind) SELECT 'live' FROM generate_series(1, 200)"),
	'1000 rows over the last 2 months (gen_ulid(timestamptz)), 200 with DEFAULT gen_ulid()');
my $distributed_partitions =
  "SELECT count(*) FROM pg_dist_partition d JOIN pg_inherits i ON i.inhrelid = d.logicalrelid
          WHERE i.inhparent = 'events'::regclass AND d.partmethod = 'h'";
cmp_num(c($distributed_partitions),
	'==', 6, 'partitions of events distributed (6: 2 back, this month, 3 ahead)');
cmp_num(
	c(
		"SELECT count(*) FROM events_$m1 WHERE ulid_to_timestamp(id) < '$s1' OR ulid_to_timestamp(id) >= '$s0'"
	),
	'==', 0,
	"rows of events_$m1 outside [$s1, $s0)");
is( c("SELECT count(*) FROM events_$m1"),
	c(
		"SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= '$s1' AND ulid_to_timestamp(id) < '$s0'"
	),
	"rows of events_$m1 = rows of last month");
@pw = per_worker('events', "kind = 'live'");
ok(both_positive(@pw),
	"this month's DEFAULT gen_ulid() rows on both workers: @pw");
$p = c(
	"EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id >= ulid_min('$s1') AND id < ulid_min('$s0')"
);
like($p, qr/on events_${m1}_[0-9]+/,
	"a constant month range: the worker plan scans only events_${m1}'s shard");
is( scalar(grep { /on events_[0-9]{6}_/ && !/events_${m1}_/ } split /\n/, $p),
	0,
	'a constant month range: other partitions in the worker plan');
must(c_ok("CALL create_month_partitions('events', 5)"),
	"CALL create_month_partitions('events', 5) on the coordinator");
cmp_num(c($distributed_partitions),
	'==', 8, 'partitions of events distributed after it (8)');

my $m2 = c(
	"SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '2 months', 'YYYYMM')"
);
my $before = c("SELECT count(*) FROM events WHERE id >= ulid_min('$s1')");
like(
	c_err("ALTER TABLE events DETACH PARTITION events_$m2 CONCURRENTLY"),
	qr/\QALTER TABLE .. DETACH PARTITION .. CONCURRENTLY commands are currently unsupported\E/,
	'retention: DETACH PARTITION ... CONCURRENTLY is refused by Citus');
# DETACH (not concurrently), then DROP, as two statements
must(
	c_ok("ALTER TABLE events DETACH PARTITION events_$m2")
	  && c_ok("DROP TABLE events_$m2"),
	"retention: DETACH PARTITION events_$m2 (not concurrently), DROP TABLE");
cmp_num(c("SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass"),
	'==', 7, 'partitions of events after it');
cmp_num(c("SELECT count(*) FROM pg_dist_shard WHERE logicalrelid::text = 'events_$m2'"),
	'==', 0, "events_${m2}'s shards gone from Citus's metadata");
is(c('SELECT count(*) FROM events'),
	$before, "the other months' rows still there");

note 'undistribute_table';
must(c_ok("SELECT undistribute_table('orders')"), "undistribute_table('orders')");
cmp_num(c("SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'orders'::regclass"),
	'==', 0, "orders in Citus's metadata");
is( c("SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM orders"),
	c("SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM orders_local"),
	'orders (now local): the same ids as the local copy');
is( c(
		"INSERT INTO orders (shop_id, total) SELECT id, 1 FROM shops LIMIT 1 RETURNING id > (SELECT max(id) FROM orders_local)"
	),
	't',
	'orders (now local): DEFAULT gen_ulid() still makes a new key');

done_testing();
