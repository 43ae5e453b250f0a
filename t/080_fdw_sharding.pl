# Sharding with postgres_fdw: a coordinator and two shard servers of its own.
#
# On the coordinator, `events` is PARTITION BY HASH (id) with 4 partitions that are postgres_fdw
# foreign tables, 2 on each shard; the foreign servers list `extensions 'ulid'`, and the extension is
# in schema public on every node. The recipes of docs/scaling-out.md (test/suites/recipes/fdw_*.sql)
# run verbatim but for the shards' host (here each shard's Unix socket directory) and port.
# Checks:
#   - inserts with DEFAULT gen_ulid() on the coordinator (RETURNING into a local copy) and a batched
#     backfill with gen_ulid(timestamptz) land on both shards, each row in the partition a local
#     hash-partitioned table puts it in; the DEFAULT runs on the coordinator (one increasing sequence);
#   - the shards together hold exactly the local copy;
#   - point lookups are pruned to one partition and pushed down (Remote SQL has `id OPERATOR(public.=)
#     '<ulid>'`) and return the right row; time ranges `id >= ts::ulid AND id < ts2::ulid` (and
#     ulid_min/ulid_max bounds) are pushed down to every partition and return the right rows;
#   - a bound computed from now() is pushed down only when wrapped in a scalar subquery;
#   - without `extensions 'ulid'` nothing is pushed down (a local Filter), results unchanged;
#   - aggregates by day of ulid_to_timestamp(id) (date_bin) are correct across shards; on one foreign
#     table the date_bin form is pushed down, the AT TIME ZONE form is not; what happens on the hash-
#     partitioned parent is printed; a UNION ALL of per-partition aggregates runs on the shards;
#   - with the extension in another schema on a shard, a pushed-down condition fails there.
# PostgreSQL 13 lacks date_bin() (checked) and postgres_fdw's batch_size/async_capable: days are
# counted with date_part('day', ulid_to_timestamp(id) - '2000-01-01') there, and its postgres_fdw
# pushes no aggregate of them down (printed, not checked). postgres_fdw before 15 (13 and 14) casts
# every ulid constant in Remote SQL ('...'::public.ulid), which 15 dropped for a constant compared
# with a column of its type.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $live_rows = 3000;        # inserted with DEFAULT gen_ulid() on the coordinator
my $backfill_rows = 20000;   # gen_ulid(timestamptz), one every 37 s from 2025-03-01: about 8.6 days
my $recipes = 'test/suites/recipes';

my %node;
for my $name (qw(coord shard1 shard2))
{
	$node{$name} = PostgreSQL::Test::Cluster->new($name);
	$node{$name}->init(extra => [ '--locale=C.UTF-8', '--encoding=UTF8' ]);
	$node{$name}->start;
}

# query(NODE, SQL, psql options...): the output of SQL on NODE (unaligned, tuples only), and on an
# error psql's message after it, so that the check that reads it fails and says why
sub query
{
	my ($name, $sql, @extra) = @_;
	my ($rc, $out, $err) =
	  $node{$name}->psql('postgres', $sql, extra_params => [@extra]);
	return $rc == 0 ? $out : "$out\n$err";
}

# must(NAME, NODE, SQL, psql options...): a set-up step; the run ends when it fails
sub must
{
	my ($what, $name, $sql, @extra) = @_;
	my ($rc, $out, $err) =
	  $node{$name}->psql('postgres', $sql, extra_params => [@extra]);
	ok($rc == 0, $what) or BAIL_OUT("$what: $err");
	return $out;
}

# count_lines(TEXT, STRING): how many lines of TEXT contain STRING
sub count_lines
{
	my ($text, $string) = @_;
	return scalar grep { index($_, $string) >= 0 } split /\n/, $text;
}

# slurp(FILE): a recipe's text
sub slurp
{
	my ($file) = @_;
	open my $fh, '<', $file or die "could not open $file: $!";
	local $/;
	return <$fh>;
}

# note_lines(TEXT): print TEXT as notes, indented
sub note_lines
{
	note "  $_" for split /\n/, shift;
}

note 'setup: coordinator + shard1 + shard2';
for my $name (qw(coord shard1 shard2))
{
	like(query($name, 'SELECT version()'),
		qr/^PostgreSQL /, "server $name answers");
}
note query('coord', 'SELECT version()');
my $pgnum = query('coord', 'SHOW server_version_num');

# batch_size and async_capable are postgres_fdw options from PostgreSQL 14 on
my $fdw_opts = "extensions 'ulid', batch_size '1000', async_capable 'true'";
if ($pgnum < 140000)
{
	$fdw_opts = "extensions 'ulid'";
	note
	  "postgres_fdw before 14 has no batch_size or async_capable: servers with extensions 'ulid' only";
}

# fdw_consts(PLAN): postgres_fdw before 15 casts every ulid constant in Remote SQL
# ('...'::public.ulid); without that cast the plans read the same on every major
sub fdw_consts
{
	my ($plan) = @_;
	$plan =~ s/'::public\.ulid\)/')/g if $pgnum < 150000;
	return $plan;
}

# The recipes of docs/scaling-out.md (test/suites/recipes/fdw_*.sql), with this run's hosts and ports.
# the shard side: the extension in schema public (as on every node) and plain tables, one per
# partition, with their own primary keys; shard2 gets the same with events_p1 and events_p3
must('shard1: recipes/fdw_shard.sql (extension in public, tables events_p0, events_p2)',
	'shard1', '', '-f', "$recipes/fdw_shard.sql");
my $shard2_recipe = slurp("$recipes/fdw_shard.sql");
$shard2_recipe =~ s/events_p0/events_p1/g;
$shard2_recipe =~ s/events_p2/events_p3/g;
must('shard2: recipes/fdw_shard.sql with events_p1, events_p3',
	'shard2', $shard2_recipe);

my ($h1, $p1) = ($node{shard1}->host, $node{shard1}->port);
my ($h2, $p2) = ($node{shard2}->host, $node{shard2}->port);

# The coordinator side: the recipe with this run's hosts and ports (and before 14 without
# batch_size/async_capable).
my $coordinator_original = slurp("$recipes/fdw_coordinator.sql");
my $coordinator_recipe = $coordinator_original;
$coordinator_recipe =~
  s/host 'shard1\.example', port '5432'/host '$h1', port '$p1'/g;
$coordinator_recipe =~
  s/host 'shard2\.example', port '5432'/host '$h2', port '$p2'/g;
$coordinator_recipe =~
  s/extensions 'ulid', batch_size '1000', async_capable 'true'/$fdw_opts/g;
{
	my @was = split /\n/, $coordinator_original;
	my @now = split /\n/, $coordinator_recipe;
	my $changed = scalar grep { $was[$_] ne ($now[$_] // '') } 0 .. $#was;
	cmp_ok($changed, '<=', 4,
		"recipes/fdw_coordinator.sql: lines changed for this run (hosts, ports, options): $changed"
	);
}
must(
	"coordinator: recipes/fdw_coordinator.sql (extension in public, servers with extensions 'ulid', user mappings, events PARTITION BY HASH (id) over 4 foreign tables)",
	'coord',
	$coordinator_recipe);
must(
	'coordinator: the local copy every result is compared with, hash-partitioned the same way',
	'coord', q{
CREATE TABLE events_local (id ulid PRIMARY KEY, n int NOT NULL, payload text NOT NULL)
    PARTITION BY HASH (id);
CREATE TABLE events_local_p0 PARTITION OF events_local FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE events_local_p1 PARTITION OF events_local FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE events_local_p2 PARTITION OF events_local FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE events_local_p3 PARTITION OF events_local FOR VALUES WITH (MODULUS 4, REMAINDER 3);
});

note 'inserts on the coordinator';
must(
	"INSERT $live_rows rows with DEFAULT gen_ulid() through the coordinator (RETURNING into the local copy)",
	'coord', "
WITH ins AS (
    INSERT INTO events (n, payload)
    SELECT g, 'live ' || g FROM generate_series(1, $live_rows) g
    RETURNING id, n, payload)
INSERT INTO events_local SELECT * FROM ins");
must(
	"INSERT $backfill_rows backfilled rows (gen_ulid(timestamptz)) through the coordinator (batched)",
	'coord', "
INSERT INTO events_local
SELECT gen_ulid(timestamptz '2025-03-01 00:00:00+00' + g * interval '37 seconds'),
       $live_rows + g, 'backfill ' || g
FROM generate_series(1, $backfill_rows) g;
INSERT INTO events SELECT * FROM events_local WHERE n > $live_rows");

my $total = $live_rows + $backfill_rows;
is(query('coord', 'SELECT count(*) FROM events'),
	$total, 'rows seen through the coordinator');
my $s1 = query('shard1',
	'SELECT (SELECT count(*) FROM events_p0) + (SELECT count(*) FROM events_p2)');
my $s2 = query('shard2',
	'SELECT (SELECT count(*) FROM events_p1) + (SELECT count(*) FROM events_p3)');
cmp_ok($s1, '>', 0, 'rows stored on shard1 (events_p0 + events_p2)');
cmp_ok($s2, '>', 0, 'rows stored on shard2 (events_p1 + events_p3)');
is($s1 + $s2, $total, 'shard1 + shard2 rows');
cmp_ok(
	query(
		'shard1',
		"SELECT count(*) FROM (TABLE events_p0 UNION ALL TABLE events_p2) s WHERE n <= $live_rows"
	),
	'>', 0,
	'DEFAULT gen_ulid() rows on shard1');
cmp_ok(
	query(
		'shard2',
		"SELECT count(*) FROM (TABLE events_p1 UNION ALL TABLE events_p3) s WHERE n <= $live_rows"
	),
	'>', 0,
	'DEFAULT gen_ulid() rows on shard2');

# Every shard partition holds exactly the rows the local hash partition of the same remainder holds
# (read straight from the shard, not through postgres_fdw).
my $digest =
  "SELECT count(*) || ' ' || md5(coalesce(string_agg(id::text || ':' || n || ':' || payload, ',' ORDER BY id), ''))";
for my $k (0 .. 3)
{
	my $shard = 'shard' . ($k % 2 + 1);
	my $remote = query($shard, "$digest FROM events_p$k");
	my $local = query('coord', "$digest FROM events_local_p$k");
	my ($rows) = split / /, $remote;
	ok($remote ne '' && $remote eq $local,
		"$shard.events_p$k holds exactly the rows of local hash partition $k ($rows rows)"
	) or diag("$shard.events_p$k: [$remote] vs local hash partition $k: [$local]");
}
is( query(
		'coord', 'SELECT count(*) FROM ((TABLE events EXCEPT ALL TABLE events_local)
		          UNION ALL (TABLE events_local EXCEPT ALL TABLE events)) d'),
	'0',
	'rows differing between events (all shards) and the local copy, both ways');
is( query(
		'coord', "SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM events
		          WHERE n <= $live_rows) s WHERE prev >= id"),
	'0',
	'DEFAULT gen_ulid() ids not increasing in insertion order across shards (one coordinator sequence)'
);

note
  'the queries docs/scaling-out.md shows (recipes/fdw_point_lookup.sql, fdw_time_range.sql, fdw_days.sql)';
my $plan =
  fdw_consts(query('coord', '', '-f', "$recipes/fdw_point_lookup.sql"));
like(
	$plan,
	qr/^\s*Foreign Scan on public\.events_p2 events$/m,
	'fdw_point_lookup.sql: pruned to events_p2');
is(count_lines($plan, 'Foreign Scan'), 1,
	'fdw_point_lookup.sql: one foreign scan');
like(
	$plan,
	qr/\QRemote SQL: SELECT id, n, payload FROM public.events_p2 WHERE ((id OPERATOR(public.=) '01M8M88E9716VHPXTPQM4TW82Y'))\E/,
	'fdw_point_lookup.sql: the condition in the Remote SQL');
$plan = fdw_consts(query('coord', '', '-f', "$recipes/fdw_time_range.sql"));
is( count_lines(
		$plan,
		"WHERE ((id OPERATOR(public.>=) '01JNCMTT000000000000000000')) AND ((id OPERATOR(public.<) '01JNF77H000000000000000000'))"
	),
	4,
	'fdw_time_range.sql: Remote SQL with both folded bounds, one per partition');
like(
	$plan,
	qr/\QRemote SQL: SELECT id, n, payload FROM public.events_p0 WHERE ((id OPERATOR(public.>=) '01JNCMTT000000000000000000')) AND ((id OPERATOR(public.<) '01JNF77H000000000000000000'))\E/,
	"fdw_time_range.sql: events_p0's Remote SQL");
if ($pgnum >= 140000)
{
	is(count_lines($plan, 'Async Foreign Scan on public.events_p'),
		4, 'fdw_time_range.sql: Async Foreign Scan on each partition');
	my $days = slurp("$recipes/fdw_days.sql");
	is( count_lines(
			query('coord', "EXPLAIN (VERBOSE, COSTS OFF) $days"),
			'Relations: Aggregate on (public.events_p'),
		4,
		'fdw_days.sql: every branch aggregated on its shard');
	is( query('coord', '', '-f', "$recipes/fdw_days.sql"),
		query(
			'coord',
			"SELECT date_bin('1 day', ulid_to_timestamp(id), timestamptz '2000-01-01 00:00:00+00'), count(*)
			 FROM events_local GROUP BY 1 ORDER BY 1"),
		"fdw_days.sql: rows per day equal the local copy's");
}
else
{
	note
	  'PostgreSQL 13: no async foreign scans, and no date_bin() for fdw_days.sql';
}

note 'point lookups';
my ($pid, $ppart) = split /\|/,
  query('coord',
	'SELECT id, tableoid::regclass FROM events_local WHERE n = 1234');
$ppart =~ s/^events_local_//;
$plan = fdw_consts(
	query('coord', "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id = '$pid'"));
note_lines($plan);
is(count_lines($plan, 'Foreign Scan'),
	1, 'point lookup: foreign scans in the plan (pruned to one partition)');
like(
	$plan,
	qr/\QFROM public.events_$ppart WHERE ((id OPERATOR(public.=) '$pid'))\E/,
	"point lookup: Remote SQL on events_$ppart (where the row lives) has the ulid condition"
);
{
	my ($rc, $out, $err) = $node{coord}->psql(
		'postgres', q{DO $$
DECLARE r record; got text; bad int := 0;
BEGIN
    FOR r IN SELECT id, payload FROM events_local WHERE n % 115 = 0 LOOP
        got := NULL;
        EXECUTE format('SELECT payload FROM events WHERE id = %L', r.id) INTO got;
        IF got IS DISTINCT FROM r.payload THEN bad := bad + 1; END IF;
    END LOOP;
    RAISE NOTICE 'bad=%', bad;
END $$});
	my ($bad) = $err =~ /bad=(\d+)/;
	is($bad, 0,
		'point lookups of 200 sampled ids returning the wrong row or none')
	  or diag($err);
}
is( query(
		'coord',
		"SELECT count(*) FROM events WHERE id = '00000000000000000000000000'"),
	'0',
	'point lookup of an id that is not there');

note 'time ranges';
my $lo = "timestamptz '2025-03-03 00:00:00+00'";
my $hi = "timestamptz '2025-03-04 00:00:00+00'";
my $lo_ulid = query('coord', "SELECT ($lo)::ulid");
my $hi_ulid = query('coord', "SELECT ($hi)::ulid");
$plan = fdw_consts(
	query(
		'coord',
		"EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= ${lo}::ulid AND id < ${hi}::ulid"
	));
note_lines($plan);
is( count_lines(
		$plan,
		"WHERE ((id OPERATOR(public.>=) '$lo_ulid')) AND ((id OPERATOR(public.<) '$hi_ulid'))"
	),
	4,
	'time range: Remote SQL lines with both ulid bounds (one per partition)');
is(count_lines($plan, 'Filter:'),
	0,
	'time range: local Filter lines (nothing left to filter on the coordinator)');
$plan = fdw_consts(
	query(
		'coord', "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events
		 WHERE id BETWEEN ulid_min('2025-03-02 06:00+00') AND ulid_max('2025-03-02 06:29:59.999+00')"
	));
{
	my $min = query('coord', "SELECT ulid_min('2025-03-02 06:00+00')");
	my $max = query('coord', "SELECT ulid_max('2025-03-02 06:29:59.999+00')");
	is( count_lines(
			$plan,
			"WHERE ((id OPERATOR(public.>=) '$min')) AND ((id OPERATOR(public.<=) '$max'))"
		),
		4,
		'ulid_min/ulid_max bounds: Remote SQL lines with the folded bounds');
}

# same_rows(LABEL, WHERE): events (through the shards) and events_local give the same rows
sub same_rows
{
	my ($label, $where) = @_;
	my $shards = query('coord', "$digest FROM events WHERE $where");
	my $copy = query('coord', "$digest FROM events_local WHERE $where");
	my ($rows) = split / /, $shards;
	ok($shards ne '' && $shards eq $copy,
		"$label: same rows as the local copy ($rows rows)")
	  or diag("$label: shards [$shards] vs local copy [$copy]");
}
same_rows('range one day', "id >= ${lo}::ulid AND id < ${hi}::ulid");
same_rows('range 30 minutes',
	"id >= timestamptz '2025-03-02 06:00+00'::ulid AND id < timestamptz '2025-03-02 06:30+00'::ulid"
);
same_rows('range ulid_min..ulid_max',
	"id BETWEEN ulid_min('2025-03-02 06:00+00') AND ulid_max('2025-03-02 06:29:59.999+00')"
);
same_rows('range end of backfill to 2100 (includes the live rows)',
	"id >= timestamptz '2025-03-09 12:00+00'::ulid AND id < timestamptz '2100-01-01+00'::ulid"
);
same_rows('range before any row',
	"id >= timestamptz '2000-01-01+00'::ulid AND id < timestamptz '2000-01-02+00'::ulid"
);
cmp_ok(
	query(
		'coord',
		"SELECT count(*) FROM events WHERE id >= ${lo}::ulid AND id < ${hi}::ulid"),
	'>', 0,
	'range one day: row count');

# A bound from now() (STABLE) is not shipped as such; as a scalar subquery it becomes a parameter.
$plan = query('coord',
	"EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= (now() - interval '1 day')::ulid"
);
is(count_lines($plan, 'Filter:'),
	4, 'bound from now(): local Filter lines (not pushed down)');
$plan = query('coord',
	"EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= (SELECT (now() - interval '1 day')::ulid)"
);
is(count_lines($plan, 'WHERE ((id OPERATOR(public.>=) $1::public.ulid))'),
	4,
	'bound from now() in a scalar subquery: Remote SQL lines with the parameter');
same_rows('bound from now() in a scalar subquery',
	"id >= (SELECT (now() - interval '1 day')::ulid)");

note "a server without extensions 'ulid'";
must(
	'coordinator: server shard1_noext (no extensions option), foreign table events_p0_noext',
	'coord', "
CREATE SERVER shard1_noext FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '$h1', port '$p1', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1_noext OPTIONS (user 'postgres');
CREATE FOREIGN TABLE events_p0_noext (id ulid, n int, payload text)
    SERVER shard1_noext OPTIONS (table_name 'events_p0');
");
$plan = query('coord',
	"EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events_p0_noext WHERE id >= ${lo}::ulid AND id < ${hi}::ulid"
);
note_lines($plan);
like(
	$plan,
	qr/\QRemote SQL: SELECT id, n, payload FROM public.events_p0\E/,
	"without extensions 'ulid': Remote SQL fetches the whole table");
unlike($plan, qr/WHERE/, "without extensions 'ulid': no WHERE in Remote SQL");
is(count_lines($plan, "Filter: ((events_p0_noext.id >= '$lo_ulid'::ulid)"),
	1, "without extensions 'ulid': local Filter lines");
{
	my $shards = query('coord',
		"$digest FROM events_p0_noext WHERE id >= ${lo}::ulid AND id < ${hi}::ulid");
	my $copy = query('coord',
		"$digest FROM events_local_p0 WHERE id >= ${lo}::ulid AND id < ${hi}::ulid");
	my ($rows) = split / /, $copy;
	is($shards, $copy,
		"without extensions 'ulid': same rows as the local copy ($rows rows)");
}

note 'aggregates by day across shards';
my $day =
  "date_bin('1 day', ulid_to_timestamp(id), timestamptz '2000-01-01 00:00:00+00')";
my $day_remote =
  "Remote SQL: SELECT date_bin('1 day'::interval, public.ulid_to_timestamp(id), '2000-01-01 00:00:00+00'::timestamp with time zone), count(*) FROM public.events_p0 GROUP BY 1";
if ($pgnum < 140000)
{
	like(
		query('coord', "SELECT $day FROM events_local LIMIT 1"),
		qr/\Qfunction date_bin(unknown, timestamp with time zone, timestamp with time zone) does not exist\E/,
		'before 14: no date_bin()');
	# whole days since 2000-01-01 UTC, from immutable functions only (13's postgres_fdw does not
	# push the aggregate down even so: observed below)
	$day =
	  "date_part('day', ulid_to_timestamp(id) - timestamptz '2000-01-01 00:00:00+00')";
	note "days as $day instead";
}
{
	my $shards = query('coord',
		"SELECT $day AS day, count(*) FROM events GROUP BY 1 ORDER BY 1");
	my $copy = query('coord',
		"SELECT $day AS day, count(*) FROM events_local GROUP BY 1 ORDER BY 1");
	note_lines($shards);
	my $days = count_lines($copy, '|');
	is($shards, $copy,
		"rows per day (date_bin) on events equal the local copy's ($days days)");
	cmp_ok(count_lines($shards, '|'), '>=', 9, 'days with rows');
}
is( query(
		'coord',
		"SELECT date_trunc('day', ulid_to_timestamp(id) AT TIME ZONE 'UTC') AS day, count(*), min(id), max(id)
		 FROM events GROUP BY 1 ORDER BY 1"),
	query(
		'coord',
		"SELECT date_trunc('day', ulid_to_timestamp(id) AT TIME ZONE 'UTC') AS day, count(*), min(id), max(id)
		 FROM events_local GROUP BY 1 ORDER BY 1"),
	"rows, min(id), max(id) per UTC day (AT TIME ZONE) on events equal the local copy's"
);

# first_remote_sql(PLAN): the first Remote SQL of PLAN
sub first_remote_sql
{
	my ($plan) = @_;
	my ($remote) = $plan =~ /Remote SQL: (.*)/;
	return $remote // '';
}

$plan = query('coord',
	"EXPLAIN (VERBOSE, COSTS OFF) SELECT $day AS day, count(*) FROM events_p0 GROUP BY 1"
);
note_lines($plan);
if ($pgnum >= 140000)
{
	like(
		$plan,
		qr/\QRelations: Aggregate on (public.events_p0)\E/,
		'one foreign table: GROUP BY date_bin(...) is pushed down');
	like(
		$plan,
		qr/\Q$day_remote\E/,
		'one foreign table: Remote SQL groups by date_bin(..., public.ulid_to_timestamp(id), ...)'
	);
}
else
{
	note 'observed before 14: GROUP BY date_part(...) on one foreign table: '
	  . count_lines($plan, 'Relations: Aggregate on')
	  . ' aggregate(s) on the shard, Remote SQL: '
	  . first_remote_sql($plan);
}
$plan = query('coord',
	"EXPLAIN (VERBOSE, COSTS OFF) SELECT ulid_to_timestamp(id) AT TIME ZONE 'UTC', count(*) FROM events_p0 GROUP BY 1"
);
unlike(
	$plan,
	qr/Relations: Aggregate on/,
	"one foreign table: GROUP BY ulid_to_timestamp(id) AT TIME ZONE 'UTC' is not pushed down"
);
for my $pw (qw(off on))
{
	$plan = query(
		'coord', "SET enable_partitionwise_aggregate = $pw;
		 EXPLAIN (VERBOSE, COSTS OFF) SELECT $day AS day, count(*) FROM events GROUP BY 1"
	);
	note
	  "observed: hash-partitioned parent, enable_partitionwise_aggregate = $pw: "
	  . count_lines($plan, 'Relations: Aggregate on')
	  . ' of 4 partitions aggregate on the shards, '
	  . count_lines($plan, 'Partial')
	  . ' partial aggregates on the coordinator, Remote SQL: '
	  . first_remote_sql($plan);
}

# The form that runs on the shards: one aggregate per partition, added up on the coordinator.
my $per_shard = "SELECT day, sum(n)::bigint AS n FROM (
    SELECT $day AS day, count(*) AS n FROM events_p0 GROUP BY 1
    UNION ALL SELECT $day, count(*) FROM events_p1 GROUP BY 1
    UNION ALL SELECT $day, count(*) FROM events_p2 GROUP BY 1
    UNION ALL SELECT $day, count(*) FROM events_p3 GROUP BY 1
) per_partition GROUP BY day ORDER BY day";
$plan = query('coord', "EXPLAIN (VERBOSE, COSTS OFF) $per_shard");
if ($pgnum >= 140000)
{
	is(count_lines($plan, 'Relations: Aggregate on'),
		4,
		'UNION ALL of per-partition aggregates: partitions aggregated on the shards'
	);
}
else
{
	note 'observed before 14: UNION ALL of per-partition aggregates: '
	  . count_lines($plan, 'Relations: Aggregate on')
	  . ' of 4 partitions aggregated on the shards';
}
is( query('coord', $per_shard),
	query(
		'coord',
		"SELECT $day AS day, count(*) FROM events_local GROUP BY 1 ORDER BY 1"),
	"UNION ALL of per-partition aggregates: rows per day equal the local copy's");

note 'the extension in another schema on a shard';
{
	my $what = 'shard1: database ws with the extension in schema ulid_ext';
	my ($rc, $out, $err) = $node{shard1}->psql('postgres', 'CREATE DATABASE ws');
	($rc, $out, $err) = $node{shard1}->psql(
		'ws', "CREATE SCHEMA ulid_ext;
		 CREATE EXTENSION ulid SCHEMA ulid_ext;
		 CREATE TABLE public.events_ws (id ulid_ext.ulid, payload text);
		 INSERT INTO events_ws VALUES ('$pid', 'x')") if $rc == 0;
	ok($rc == 0, $what) or BAIL_OUT("$what: $err");
}
must(
	"coordinator: server shard1_ws (extensions 'ulid'), foreign table events_ws",
	'coord', "
CREATE SERVER shard1_ws FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '$h1', port '$p1', dbname 'ws', extensions 'ulid');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1_ws OPTIONS (user 'postgres');
CREATE FOREIGN TABLE events_ws (id ulid, payload text) SERVER shard1_ws;
");
is(query('coord', 'SELECT id FROM events_ws'),
	$pid, 'other schema: a scan without a condition works');
my $out = query('coord', "SELECT * FROM events_ws WHERE id = '$pid'");
if ($pgnum >= 150000)
{
	like(
		$out,
		qr/\Qoperator does not exist: ulid_ext.ulid public.=\E/,
		'other schema: a pushed-down condition fails on the shard (OPERATOR(public.=) does not exist there)'
	);
}
else
{
	# 13 and 14 also send the constant as '...'::public.ulid, which fails first
	like(
		$out,
		qr/type "public.ulid" does not exist/,
		'other schema: a pushed-down condition fails on the shard (type public.ulid does not exist there)'
	);
}

done_testing();
