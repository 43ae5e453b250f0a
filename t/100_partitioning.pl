# Time partitioning on the ulid key: the recipes in test/suites/recipes/partition_*.sql, run verbatim
# (docs/time-and-partitioning.md quotes them).
#
# On a server of its own:
#   - partition_by_month.sql: events PARTITION BY RANGE (id), monthly partitions bounded by
#     ulid_min(<first instant of the month, UTC>), a BRIN index on the parent, and the procedure
#     create_month_partitions(parent, months_ahead, since); called again from 5 months back;
#   - DEFAULT gen_ulid() rows land in the current month's partition; 20,000 backfilled rows
#     (gen_ulid(timestamptz)) and rows for next month each in the partition of their month;
#   - plan-time pruning for constant bounds (ulid_min(literal), literal::timestamptz::ulid): one
#     partition in the plan; run-time pruning for now()-based bounds: `Subplans Removed`, the right
#     partitions scanned, the same count as an unprunable filter on ulid_to_timestamp(id), which
#     scans every partition;
#   - the BRIN index exists, valid, on every partition and serves a time range (with the btree
#     hidden inside a rolled-back transaction), same rows;
#   - a DEFAULT partition: rows outside every month go there; it makes DETACH ... CONCURRENTLY
#     fail, and creating a month whose rows sit in it fail, until they are moved out;
#   - partition_retention.sql: months before the last 3 whole months are detached CONCURRENTLY and
#     dropped, the others and their rows stay;
#   - pg_partman (Debian's postgresql-<major>-partman, when it is installed for Debian's server
#     under test): what create_parent says to a ulid control column, and to a uuid column holding
#     ulid bytes.
# On a second server with shared_preload_libraries = 'pg_cron' (when Debian's
# postgresql-<major>-cron is installed for the server under test; otherwise reported as not
# applicable): partition_cron.sql schedules the procedure; the job, moved to every minute, runs and
# creates the missing months (waits for its run, bounded).
# PostgreSQL 13 has no DETACH PARTITION ... CONCURRENTLY: the suite checks the syntax error users
# get (from the statement and from the retention recipe) and runs the recipe without CONCURRENTLY.
#
# The suite runs as the server's OS user and installs nothing: where pg_cron or pg_partman is not
# installed for the server under test, that part is a note, not a check (as root, install
# postgresql-<major>-cron and postgresql-<major>-partman first to have them run).

use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $RECIPES = 'test/suites/recipes';
my $BACKFILL = 20000;
my $PG_CONFIG = $ENV{PG_CONFIG} // 'pg_config';

my $node = PostgreSQL::Test::Cluster->new('part');

# query / sql_ok SQL: t/lib/UlidTest.pm's, on $node
sub sql_ok { return node_sql_ok($node, @_); }
my $cron;

# query NODE, SQL: psql's output (-XAtq, ON_ERROR_STOP=1, one session for all of SQL); on an error,
# the error as a diagnostic and '' as the output, so the check that reads it fails
sub query_on
{
	my ($n, $sql) = @_;
	my ($rc, $out, $err) = $n->psql('postgres', $sql);
	if ($rc != 0)
	{
		diag("query failed: $err");
		return '';
	}
	return $out;
}

# query SQL: query_on the suite's server
sub query { return query_on($node, $_[0]); }

# q_all SQL: what psql printed, standard output and error, running SQL (which is expected to fail)
sub q_all
{
	my ($sql) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', $sql);
	return join("\n", grep { $_ ne '' } $out, $err);
}

# recipe NODE, FILE: (exit status 0?, output and error) of psql -f FILE, verbatim, on NODE
sub recipe
{
	my ($n, $file) = @_;
	my ($out, $err) = ('', '');
	my $ran = IPC::Run::run(
		[
			'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1',
			'-d', $n->connstr('postgres'), '-f', "$RECIPES/$file"
		],
		'<', \undef, '>', \$out, '2>', \$err);
	return ($ran, join("\n", grep { $_ ne '' } $out, $err));
}

# recipe_ok NODE, FILE: true when psql -f FILE ran without an error (its output as a diagnostic
# otherwise)
sub recipe_ok
{
	my ($ran, $out) = recipe(@_);
	diag("psql -f $RECIPES/$_[1]: $out") if !$ran;
	return $ran;
}

# month OFFSET: YYYYMM of the UTC month OFFSET months from now
sub month
{
	return query("SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '$_[0] months', 'YYYYMM')"
	);
}

# month_start OFFSET: that month's first instant, as a timestamptz literal
sub month_start
{
	return query("SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '$_[0] months', 'YYYY-MM-DD') || ' 00:00:00+00'"
	);
}

# plan_of SQL: EXPLAIN (ANALYZE) of SQL, UTC session
sub plan_of
{
	return query("SET TimeZone = 'UTC'; EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $_[0]");
}

# scanned PLAN: the distinct events partitions a plan scans, space-separated
sub scanned
{
	my %seen = map { $_ => 1 } $_[0] =~ /on (events_\d{6})/g;
	return join(' ', sort keys %seen);
}

# partitions_of NODE: the partitions of events on NODE, by name, space-separated
sub partitions_of
{
	return query_on($_[0],
		"SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'events'::regclass");
}

my $major = pg_config_value('--version', $PG_CONFIG);
$major = $1 if $major =~ /^PostgreSQL (\d+)/;
my $sharedir = pg_config_value('--sharedir', $PG_CONFIG);

# debian_extension NAME, PACKAGE: true when the extension's files are installed for the server under
# test; otherwise says why not (Debian's package not installed for Debian's server, or a server
# that is not Debian's) and returns false
sub debian_extension
{
	my ($ext, $pkg) = @_;
	return 1 if -f "$sharedir/extension/$ext.control";
	if ($sharedir !~ m{/usr/share/postgresql/$major$})
	{
		note("$ext: the server under test is not Debian's ($sharedir); $pkg does not apply");
	}
	else
	{
		note("$ext: $pkg is not installed for the server under test ($sharedir);"
			  . " installing it needs root, which this suite does not have");
	}
	return 0;
}

# ---------------------------------------------------------------------------------------------
# pg_cron first: its server starts now, and its job's run is awaited at the end
note("pg_cron server (own cluster, shared_preload_libraries = 'pg_cron')");
if (debian_extension('pg_cron', "postgresql-$major-cron"))
{
	$cron = PostgreSQL::Test::Cluster->new('cron');
	$cron->init;
	$cron->append_conf(
		'postgresql.conf', "shared_preload_libraries = 'pg_cron'
cron.database_name = 'postgres'
cron.host = '" . $cron->host . "'\n");
	must($cron->start(fail_ok => 1), 'cron: server with pg_cron preloaded up');
	my $by_month = PostgreSQL::Test::Utils::slurp_file("$RECIPES/partition_by_month.sql");
	$by_month =~
	  s/^CALL create_month_partitions.*;$/CALL create_month_partitions('events', 1);/mg;
	my ($rc, $out, $err) = $cron->psql('postgres', "CREATE EXTENSION ulid;\n$by_month");
	diag($err) if $rc != 0;
	must($rc == 0, 'cron: ulid and partition_by_month.sql (this month and the next only)');
	cmp_num(
		query_on($cron,
			"SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass"),
		'==', 2,
		'cron: partitions before the job runs');
	must(recipe_ok($cron, 'partition_cron.sql'), 'cron: partition_cron.sql runs');
	is( query_on($cron,
			"SELECT schedule || ' | ' || command FROM cron.job WHERE jobname = 'events-partitions'"),
		"0 3 * * * | CALL create_month_partitions('events', 3)",
		'cron: the job is scheduled daily at 03:00 with the CALL');
	($rc, $out, $err) = $cron->psql('postgres',
		"SELECT cron.alter_job(jobid, schedule => '* * * * *') FROM cron.job WHERE jobname = 'events-partitions'"
	);
	diag($err) if $rc != 0;
	must($rc == 0, 'cron: the job moved to every minute (to see it run here)');
}
else
{
	note("pg_cron: not applicable to this server (PostgreSQL $major, $sharedir)");
}

# ---------------------------------------------------------------------------------------------
note('partition_by_month.sql on the suite\'s server');
$node->init;
$node->start;
my $pgnum = query('SHOW server_version_num');
note(query('SELECT version()'));
must(sql_ok('CREATE EXTENSION IF NOT EXISTS ulid'), 'CREATE EXTENSION ulid');
must(recipe_ok($node, 'partition_by_month.sql'), 'partition_by_month.sql runs');
my $M0 = month(0);
is(partitions_of($node),
	"events_$M0 events_" . month(1) . ' events_' . month(2) . ' events_' . month(3),
	'partitions made by the recipe: this month and the 3 after it');
is( query("SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE relname = 'events_$M0'"),
	query(      "SELECT format('FOR VALUES FROM (%L) TO (%L)', ulid_min('"
		  . month_start(0)
		  . "'), ulid_min('"
		  . month_start(1) . "'))"),
	"events_$M0 is bounded by ulid_min() of the first instants of this month and the next");
must(sql_ok("CALL create_month_partitions('events', 3, since => now() - interval '5 months')"),
	"CALL create_month_partitions('events', 3, since => now() - interval '5 months')");
cmp_num(query("SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass"),
	'==', 9,
	'partitions after the second call (5 back, this month, 3 ahead; nothing made twice)');

note('rows land in the partition of their month');
must(
	sql_ok(
		"CREATE TABLE live_window AS SELECT clock_timestamp() AS t0;
		 INSERT INTO events (kind) SELECT 'live' FROM generate_series(1, 1000);
		 ALTER TABLE live_window ADD COLUMN t1 timestamptz;
		 UPDATE live_window SET t1 = clock_timestamp()"),
	'1,000 rows with DEFAULT gen_ulid() (the time before and after recorded)');
cmp_num(
	query(
		"SELECT count(*) FROM events, live_window WHERE kind = 'live' AND events.tableoid::regclass::text IN
		 ('events_' || to_char(t0 AT TIME ZONE 'UTC', 'YYYYMM'), 'events_' || to_char(t1 AT TIME ZONE 'UTC', 'YYYYMM'))"
	),
	'==', 1000,
	'DEFAULT gen_ulid() rows in the partition of the current month (of 1000)');
must(
	sql_ok(
		"INSERT INTO events (id, kind)
		 SELECT gen_ulid(start + (now() - interval '1 second' - start) * (g::float8 / $BACKFILL)), 'backfill'
		 FROM (SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '5 months') AT TIME ZONE 'UTC') s(start),
		      generate_series(0, $BACKFILL - 1) g;
		 INSERT INTO events (id, kind) SELECT gen_ulid(now() + interval '1 month'), 'next' FROM generate_series(1, 100);
		 ANALYZE events"),
	"$BACKFILL backfilled rows over the last 5 months, 100 for next month (gen_ulid(timestamptz))"
);
cmp_num(
	query(
		"SELECT count(*) FROM events
		 WHERE tableoid::regclass::text <> 'events_' || to_char(ulid_to_timestamp(id) AT TIME ZONE 'UTC', 'YYYYMM')"
	),
	'==', 0,
	'rows outside the partition of their UTC month (of ' . ($BACKFILL + 1100) . ')');
cmp_num(query('SELECT count(DISTINCT tableoid) FROM events'),
	'==', 7, 'partitions holding rows (5 back, this month, next month)');
my $M1 = month(1);
cmp_num(query("SELECT count(*) FROM events_$M1"),
	'==', 100, "rows in events_$M1 (the 100 of next month)");

note('partition pruning');
my $M2 = month(-2);
my $S2 = month_start(-2);
my $S1 = month_start(-1);
my $want2 = query(
	"SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= '$S2' AND ulid_to_timestamp(id) < '$S1'"
);
cmp_num($want2, '>', 0, 'rows two months back (by ulid_to_timestamp)');
my $p = plan_of("SELECT count(*) FROM events WHERE id >= ulid_min('$S2') AND id < ulid_min('$S1')");
is(scanned($p), "events_$M2",
	"plan-time: ulid_min('$S2') .. ulid_min('$S1') scans only events_$M2");
unlike($p, qr/Subplans Removed/, 'plan-time: pruned while planning (no Subplans Removed)');
is(query("SELECT count(*) FROM events WHERE id >= ulid_min('$S2') AND id < ulid_min('$S1')"),
	$want2, 'plan-time: rows two months back through the pruned plan');
$p = plan_of(
	"SELECT count(*) FROM events WHERE id >= '$S2'::timestamptz::ulid AND id < '$S1'::timestamptz::ulid"
);
is(scanned($p), "events_$M2", 'plan-time: the same with timestamptz::ulid casts');

my $RANGE_NOW =
  "id >= ulid_min(date_trunc('month', now(), 'UTC')) AND id < ulid_min(date_trunc('month', now(), 'UTC') + interval '1 month')";
$p = plan_of("SELECT count(*) FROM events WHERE $RANGE_NOW");
like($p, qr/Subplans Removed: 8/,
	'run-time: this month by now()-based bounds: Subplans Removed: 8');
is(scanned($p), "events_$M0", "run-time: only events_$M0 scanned");
is( query("SELECT count(*) FROM events WHERE $RANGE_NOW"),
	query(
		"SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= date_trunc('month', now(), 'UTC')
		 AND ulid_to_timestamp(id) < date_trunc('month', now(), 'UTC') + interval '1 month'"
	),
	"run-time: this month's rows through the pruned plan = by ulid_to_timestamp");
$p = plan_of("SELECT count(*) FROM events WHERE id >= ulid_min(now() - interval '7 days')");
like($p, qr/Subplans Removed: [4-5]/,
	"run-time: the last 7 days (id >= ulid_min(now() - interval '7 days')) removes the older months"
);
is( query("SELECT count(*) FROM events WHERE id >= ulid_min(now() - interval '7 days')"),
	query("SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= now() - interval '7 days'"),
	'run-time: the last 7 days, rows = by ulid_to_timestamp');
$p = plan_of("SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= now() - interval '7 days'");
my @scanned = split ' ', scanned($p);
cmp_num(scalar(@scanned), '==', 9,
	'what not to do: a filter on ulid_to_timestamp(id) prunes nothing (partitions scanned)');

note('BRIN on every partition');
cmp_num(
	query(
		"SELECT count(DISTINCT x.indrelid) FROM pg_index x JOIN pg_class ic ON ic.oid = x.indexrelid
		 JOIN pg_am am ON am.oid = ic.relam JOIN pg_inherits i ON i.inhrelid = x.indrelid
		 WHERE i.inhparent = 'events'::regclass AND am.amname = 'brin' AND x.indisvalid"),
	'==', 9,
	'partitions with a valid BRIN index on id (of 9)');
$p = query(
	"BEGIN; ALTER TABLE events DROP CONSTRAINT events_pkey; SET LOCAL enable_seqscan = off;
	 EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id >= ulid_min('$S2') AND id < ulid_min('$S1');
	 ROLLBACK");
like(
	$p,
	qr/Bitmap Index Scan on events_${M2}_id_idx/,
	"a time range uses events_${M2}'s BRIN index (btree hidden in a rolled-back transaction)");
is( query(
		"BEGIN; ALTER TABLE events DROP CONSTRAINT events_pkey; SET LOCAL enable_seqscan = off;
		 SELECT count(*) FROM events WHERE id >= ulid_min('$S2') AND id < ulid_min('$S1'); ROLLBACK"
	),
	$want2,
	'rows two months back through the BRIN index');

note('a DEFAULT partition');
must(sql_ok('CREATE TABLE events_default PARTITION OF events DEFAULT'),
	'events_default PARTITION OF events DEFAULT');
must(
	sql_ok(
		"INSERT INTO events (id, kind) VALUES (gen_ulid('2001-01-01 00:00:00+00'), 'stray old'),
		                                      (gen_ulid(now() + interval '6 months'), 'stray ahead')"
	),
	'a row from 2001 and one 6 months ahead');
is(query("SELECT string_agg(tableoid::regclass::text, ' ') FROM events WHERE kind LIKE 'stray%'"),
	'events_default events_default', 'both in events_default');
my $out = q_all('ALTER TABLE events DETACH PARTITION events_' . month(-5) . ' CONCURRENTLY');
if ($pgnum >= 140000)
{
	like(
		$out,
		qr/\Qcannot detach partitions concurrently when a default partition exists\E/,
		'DETACH PARTITION ... CONCURRENTLY is refused while a DEFAULT partition exists');
}
else
{
	like(
		$out,
		qr/\Qsyntax error at or near "CONCURRENTLY"\E/,
		'before 14 there is no DETACH PARTITION ... CONCURRENTLY');
}
$out = q_all("CALL create_month_partitions('events', 6)");
like(
	$out,
	qr/\Qupdated partition constraint for default partition "events_default" would be violated by some row\E/,
	'creating the month of a row in events_default fails');
must(
	sql_ok(
		"BEGIN;
		 CREATE TEMP TABLE stray (LIKE events);
		 WITH moved AS (DELETE FROM events_default WHERE id >= ulid_min(now()) RETURNING *)
		 INSERT INTO stray SELECT * FROM moved;
		 CALL create_month_partitions('events', 6);
		 INSERT INTO events SELECT * FROM stray;
		 COMMIT"),
	'move the row out of events_default, create the months, put it back (one transaction)');
my $M6 = month(6);
is(query("SELECT tableoid::regclass FROM events WHERE kind = 'stray ahead'"),
	"events_$M6", "the row 6 months ahead is now in events_$M6");
must(sql_ok('ALTER TABLE events DETACH PARTITION events_default; DROP TABLE events_default'),
	'DETACH (not concurrently) and DROP events_default');
$out = q_all(
	"INSERT INTO events (id, kind) VALUES (gen_ulid('2001-01-01 00:00:00+00'), 'no partition')");
like(
	$out,
	qr/\Qno partition of relation "events" found for row\E/,
	'without a DEFAULT partition a row outside every month is refused');

note("retention ($RECIPES/partition_retention.sql)");
my $before = query("SELECT count(*) FROM events WHERE id >= ulid_min('" . month_start(-3) . "')");
if ($pgnum >= 140000)
{
	must(recipe_ok($node, 'partition_retention.sql'), 'partition_retention.sql runs');
}
else
{
	like(
		(recipe($node, 'partition_retention.sql'))[1],
		qr/\Qsyntax error at or near "CONCURRENTLY"\E/,
		'before 14 partition_retention.sql stops at its first DETACH ... CONCURRENTLY');
	my $plain = PostgreSQL::Test::Utils::slurp_file("$RECIPES/partition_retention.sql");
	$plain =~ s/ CONCURRENTLY//g;
	must(sql_ok($plain),
		'partition_retention.sql without CONCURRENTLY (a plain DETACH locks events meanwhile) runs');
}
is(partitions_of($node),
	join(' ', map { 'events_' . month($_) } -3 .. 6),
	'partitions left: 3 whole months back, this month, 6 ahead');
my ($M_5, $M_4) = (month(-5), month(-4));
cmp_num(query("SELECT count(*) FROM pg_class WHERE relname IN ('events_$M_5', 'events_$M_4')"),
	'==', 0, "detached months dropped too (tables named events_$M_5, events_$M_4)");
is(query('SELECT count(*) FROM events'), $before, 'rows of the kept months unchanged');
cmp_num(query("SELECT count(*) FROM events WHERE id < ulid_min('" . month_start(-3) . "')"),
	'==', 0, 'rows older than 3 whole months left');
cmp_num(
	query(
		"INSERT INTO events (kind) VALUES ('after')
		 RETURNING (tableoid::regclass::text = 'events_' || to_char(now() AT TIME ZONE 'UTC', 'YYYYMM'))::int"
	),
	'==', 1,
	"DEFAULT gen_ulid() after retention lands in events_$M0 (month of now)");

note("pg_partman (Debian's postgresql-$major-partman)");
if ($sharedir !~ m{/usr/share/postgresql/$major$})
{
	note("pg_partman: not Debian's server; pg_partman 5 on the source-built servers is t/310_partman.pl's"
	);
}
elsif (debian_extension('pg_partman', "postgresql-$major-partman"))
{
	must(sql_ok('CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman'),
		'CREATE EXTENSION pg_partman SCHEMA partman');
	my $pm_version = query("SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'");
	note("pg_partman $pm_version");
	must(
		sql_ok(
			"CREATE TABLE pm_ulid (id ulid NOT NULL DEFAULT gen_ulid()) PARTITION BY RANGE (id);
			 CREATE TABLE pm_uuid (id uuid NOT NULL DEFAULT gen_ulid()::uuid) PARTITION BY RANGE (id)"),
		'tables pm_ulid (ulid key) and pm_uuid (uuid key holding gen_ulid() bytes), PARTITION BY RANGE (id)'
	);
	for my $t ('ulid', 'uuid')
	{
		$out = q_all("SELECT partman.create_parent('public.pm_$t', 'id', 'native', 'monthly')");
		if ($pm_version =~ /^4\./)
		{
			like(
				$out,
				qr/\Qpg_partman only supports partitioning of data types that are integer or date\/timestamp. Supplied column is of type $t\E/,
				"pg_partman 4: create_parent on a $t control column is refused");
		}
		else
		{
			note("pg_partman $pm_version on a $t column said: $out");
		}
	}
}
else
{
	note("pg_partman: not applicable to this server (PostgreSQL $major, $sharedir)");
}

# ---------------------------------------------------------------------------------------------
if ($cron)
{
	note("pg_cron: the job's run (it starts on the next whole minute; waits at most 150 s)");
	for (1 .. 150)
	{
		last
		  if query_on($cron,
			"SELECT count(*) FROM cron.job_run_details WHERE status IN ('succeeded', 'failed')")
		  ne '0';
		sleep 1;
	}
	is( query_on($cron,
			"SELECT status || ' ' || command FROM cron.job_run_details ORDER BY runid LIMIT 1"),
		"succeeded CALL create_month_partitions('events', 3)",
		"cron: the job's first run succeeded");
	is(partitions_of($cron),
		"events_$M0 events_$M1 events_" . month(2) . ' events_' . month(3),
		'cron: partitions after the job: this month and the 3 after it');
	cmp_num(
		query_on($cron,
			"SELECT count(*) FROM pg_inherits i JOIN pg_index x ON x.indrelid = i.inhrelid
			 JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_am am ON am.oid = ic.relam
			 WHERE i.inhparent = 'events'::regclass AND am.amname = 'brin'"),
		'==', 4,
		'cron: every partition has the BRIN index');
}

done_testing();
