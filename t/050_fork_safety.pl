# Fork safety: with ulid preloaded into the postmaster, no two backends share random bits.
#
# A server of its own runs with shared_preload_libraries = 'ulid', so every backend and parallel
# worker is forked from a postmaster that has the library (its static entropy pool and monotonic
# state) loaded. If the postmaster ever filled the read-ahead pool, or a child kept what it
# inherited, every child would hand out the same bytes.
#
#   1. the library is really mapped in the postmaster;
#   2. 60 backends are opened at once and held at a barrier (an advisory lock), then each generates
#      gen_ulid() x5, gen_random_ulid() x5, gen_ulid(timestamptz) x3 (and gen_monotonic_ulid() x5
#      where installed) into a table with pg_backend_pid(): 60 distinct pids, no duplicate id, no
#      80-bit entropy (substr(id::bytea, 7)) seen in two backends, the first gen_ulid() of each
#      backend has its own entropy, gen_ulid() strictly increasing within each backend;
#   3. gen_random_ulid() evaluated inside parallel workers (forked from the postmaster too, not from
#      the leader): workers launched, and no entropy repeated among the values they made.
#
# The suite is known to catch the failure it guards against: a scratch build that filled the pool
# in _PG_init (in the postmaster) and dropped the per-process check of src/pg/backend_random.hpp (a
# pid then; a fork generation since 0.3.1) failed 7 checks (207 duplicate ids, all 60 backends'
# first gen_ulid() with one entropy, 408 repeated values in the parallel workers); the same build
# with the check kept passed every check. Forks inside a backend: the exception_wall suite.
#
# ULID_FORK_BACKENDS (default 60) sets the number of backends.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $backends = $ENV{ULID_FORK_BACKENDS} || 60;
my $per_gen = 5;     # gen_ulid() and gen_random_ulid() values per backend
my $per_at = 3;      # gen_ulid(timestamptz) values per backend (all at one fixed time)
my $par_rows = 200000;
my $lock_key = 4242;

my $node = PostgreSQL::Test::Cluster->new('fork');
$node->init;
$node->append_conf(
	'postgresql.conf', qq(
shared_preload_libraries = 'ulid'
max_connections = @{[ $backends + 40 ]}
max_worker_processes = 8
max_parallel_workers = 4
));
ok($node->start(fail_ok => 1),
	"server with shared_preload_libraries = 'ulid' started")
  or BAIL_OUT("a server with shared_preload_libraries = 'ulid' does not start");

sub query
{
	my ($sql) = @_;
	return $node->safe_psql('postgres', $sql);
}

is(query('SHOW shared_preload_libraries'), 'ulid', 'SHOW shared_preload_libraries');

my $postmaster_pid =
  (split /\n/, slurp_file($node->data_dir . '/postmaster.pid'))[0];
my $maps = eval { slurp_file("/proc/$postmaster_pid/maps") } // '';
like($maps, qr{/ulid\.so$}m,
	"ulid.so is mapped in the postmaster (pid $postmaster_pid) before any backend uses it");

is( $node->psql(
		'postgres', 'CREATE EXTENSION ulid;
	CREATE TABLE fork_ids (pid int NOT NULL, kind text NOT NULL, n int NOT NULL, id ulid NOT NULL)'
	),
	0,
	'extension and table created');
note 'ulid '
  . query("SELECT extversion FROM pg_extension WHERE extname = 'ulid'") . ', '
  . query('SELECT version()');

# ---------------------------------------------------------------------------------------------
note "round 1: $backends backends opened at once, released together from an advisory-lock barrier";

# The barrier: a session of our own holds the exclusive lock until every client waits on it.
my ($holder_in, $holder_out) = ('', '');
my $holder = IPC::Run::start(
	[ 'psql', '-XAtq', '-d', $node->connstr('postgres'), '-f', '-' ],
	'<', \$holder_in, '>', \$holder_out, '2>&1');

# holder_query SQL WANT: send SQL to the holder session, and wait (bounded) for output matching WANT
sub holder_query
{
	my ($sql, $want) = @_;
	$holder_out = '';
	$holder_in .= "$sql\n";
	pump_until($holder, IPC::Run::timer(60), \$holder_out, $want);
	chomp(my $got = $holder_out);
	return $got;
}

is(holder_query("SELECT 'held', pg_advisory_lock($lock_key);", qr/\n/),
	'held|', 'barrier lock taken');

# gen_monotonic_ulid() (shared state, when the installed version has it) joins in as well
my $has_monotonic =
  query("SELECT to_regprocedure('gen_monotonic_ulid()') IS NOT NULL") eq 't';
note "gen_monotonic_ulid() x$per_gen per backend as well" if $has_monotonic;
my $client_sql = <<SQL;
SELECT pg_advisory_lock_shared($lock_key);
INSERT INTO fork_ids SELECT pg_backend_pid(), 'gen_ulid', g, gen_ulid() FROM generate_series(1, $per_gen) g;
INSERT INTO fork_ids SELECT pg_backend_pid(), 'gen_random_ulid', g, gen_random_ulid() FROM generate_series(1, $per_gen) g;
INSERT INTO fork_ids SELECT pg_backend_pid(), 'gen_ulid_at', g, gen_ulid('2020-02-02 02:02:02.002+00') FROM generate_series(1, $per_at) g;
SQL
$client_sql .=
  "INSERT INTO fork_ids SELECT pg_backend_pid(), 'gen_monotonic_ulid', g, gen_monotonic_ulid() FROM generate_series(1, $per_gen) g;\n"
  if $has_monotonic;

# Each client reads its script from a file and writes to a file of its own, so that all of them
# run on their own while this script waits (IPC::Run feeds scalars only while it is pumped).
my $work = PostgreSQL::Test::Utils::tempdir();
append_to_file("$work/client.sql", $client_sql);
my @clients;
for my $i (1 .. $backends)
{
	push @clients,
	  IPC::Run::start(
		[
			'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1',
			'-d', $node->connstr('postgres'), '-f', "$work/client.sql"
		],
		'<', '/dev/null', '>', "$work/client.$i.out", '2>&1');
}

# Wait (bounded; not an assertion on time) until every client's backend is blocked on the barrier.
my $waiting_sql =
  "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted";
$node->poll_query_until('postgres', "SELECT ($waiting_sql) >= $backends");
is(query($waiting_sql), $backends,
	'backends waiting at the barrier at the same time');
is(holder_query("SELECT 'released', pg_advisory_unlock($lock_key);", qr/\n/),
	'released|t', 'barrier released');
$holder_in .= "\\q\n";
$holder->finish;

my $failed_clients = 0;
for my $i (1 .. $backends)
{
	next if $clients[ $i - 1 ]->finish;
	$failed_clients++;
	diag "client $i: $_" for split /\n/, slurp_file("$work/client.$i.out");
}
is($failed_clients, 0, 'clients that failed');

my $per_backend = 2 * $per_gen + $per_at + ($has_monotonic ? $per_gen : 0);
is(query('SELECT count(*) FROM fork_ids'), $backends * $per_backend, 'rows');
is(query('SELECT count(DISTINCT pid) FROM fork_ids'),
	$backends, 'distinct backend pids');
is( query(
		"SELECT count(*) FROM (SELECT pid FROM fork_ids GROUP BY pid HAVING count(*) = $per_backend) s"
	),
	$backends,
	"backends with all $per_backend values");
is(query('SELECT count(*) - count(DISTINCT id) FROM fork_ids'),
	0, 'duplicate ids');
is( query('SELECT count(*) FROM (SELECT substr(id::bytea, 7) FROM fork_ids GROUP BY 1
	                          HAVING count(DISTINCT pid) > 1) s'),
	0,
	'80-bit entropy values found in more than one backend (any generator)');
is( query('SELECT count(*) FROM (SELECT DISTINCT a.pid, b.pid FROM fork_ids a JOIN fork_ids b
	                          ON substr(a.id::bytea, 7) = substr(b.id::bytea, 7) AND a.pid < b.pid) s'),
	0,
	'pairs of backends sharing an entropy value');
is( query(
		"SELECT count(DISTINCT substr(id::bytea, 7)) FROM fork_ids WHERE kind = 'gen_ulid' AND n = 1"
	),
	$backends,
	"distinct entropies among the first gen_ulid() of each backend (of $backends)");
is( query(
		"SELECT count(*) - count(DISTINCT substr(id::bytea, 7)) FROM fork_ids WHERE kind = 'gen_random_ulid'"
	),
	0,
	'repeated entropies among gen_random_ulid() values');
is( query(
		"SELECT count(*) - count(DISTINCT substr(id::bytea, 7)) FROM fork_ids WHERE kind = 'gen_ulid_at'"
	),
	0,
	'repeated entropies among gen_ulid(timestamptz) values (all at one time)');
for my $kind ('gen_ulid', $has_monotonic ? ('gen_monotonic_ulid') : ())
{
	is( query(
			"SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY pid ORDER BY n) AS prev
			                        FROM fork_ids WHERE kind = '$kind') s
			 WHERE prev IS NOT NULL AND NOT id > prev"
		),
		0,
		"$kind() values not above the previous one of the same backend");
}
note 'sample (3 backends, first gen_ulid and gen_random_ulid):';
note $_ for split /\n/, query(
	"SELECT 'pid ' || pid || ' ' || string_agg(kind || ' ' || id::text, ', ' ORDER BY kind)
	   FROM fork_ids WHERE n = 1 AND kind <> 'gen_ulid_at'
	    AND pid IN (SELECT DISTINCT pid FROM fork_ids ORDER BY pid LIMIT 3)
	  GROUP BY pid ORDER BY pid");

# ---------------------------------------------------------------------------------------------
note "round 2: gen_random_ulid() inside parallel workers ($par_rows rows, leader not participating)";
query("CREATE TABLE par_src AS SELECT g FROM generate_series(1, $par_rows) g");
query('VACUUM ANALYZE par_src');
my ($rc, $plan, $plan_err) = $node->psql(
	'postgres', 'SET max_parallel_workers_per_gather = 2;
	SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0;
	SET parallel_leader_participation = off;
	EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF)
	  CREATE TABLE par_out AS SELECT gen_random_ulid() AS id FROM par_src');
$plan .= "\n$plan_err" if $plan_err ne '';
note "  $_" for split /\n/, $plan;
like($plan, qr/Workers Launched: [1-9]/, 'parallel workers launched');
like(
	$plan,
	qr/\QOutput: gen_random_ulid()\E/,
	'gen_random_ulid() evaluated below the Gather (in the workers)');
is(query('SELECT count(*) FROM par_out'), $par_rows, 'rows made by the workers');
is(query('SELECT count(*) - count(DISTINCT substr(id::bytea, 7)) FROM par_out'),
	0, "repeated entropies among the workers' values");

# ---------------------------------------------------------------------------------------------
my @crashes = grep { /terminated by signal|was terminated|PANIC/ }
  split /\n/, slurp_file($node->logfile);
is(scalar @crashes, 0, 'server log lines reporting a crashed process');
diag $_ for @crashes;

done_testing();
