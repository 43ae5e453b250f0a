# Behind a pooler: what "a session" means for gen_ulid() and gen_monotonic_ulid() when pgbouncer
# runs one client's transactions on several backends (docs/monotonicity.md, "Behind a connection
# pooler").
#
# Debian's pgbouncer in transaction mode in front of a server of its own
# (shared_preload_libraries = 'ulid' so that gen_monotonic_ulid() runs on every major), run as the
# test's OS user on a free loopback port, 4 server connections in rotation (server_round_robin).
# One client (pgbench -c 1, simple protocol) runs 3,000 transactions of one INSERT each:
#   - its transactions run on several backends (pg_backend_pid() recorded with each row);
#   - gen_ulid(): strictly increasing within each backend, but not in the client's order: the
#     order breaks are counted and printed, and where consecutive transactions of different
#     backends shared a millisecond often enough (>= 20 times) for a break to be certain but for
#     a chance of 2^-20, at least one break is required; on a machine too slow for that the count
#     is only printed (no timing assertion);
#   - gen_monotonic_ulid(): no order break at all, whatever the timing;
#   - protocol-level prepared statements (pgbench -M prepared) fail in transaction mode before
#     pgbouncer 1.21 (a statement prepared on one backend is executed on another), while the
#     extended protocol with unnamed statements (-M extended) works; from 1.21 on,
#     max_prepared_statements lets pgbouncer prepare them where they run (noted only there).
# Skipped where pgbouncer is not installed.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use POSIX qw(WNOHANG);
use Time::HiRes qw(usleep);

my $pgbouncer = (grep { -x } map { "$_/pgbouncer" } split(/:/, $ENV{PATH}),
	'/usr/sbin')[0];
plan skip_all =>
  'pgbouncer is not installed (Debian: apt-get install pgbouncer)'
  unless defined $pgbouncer;

my $txns = 3000;
my $pool = 4;

note 'setup: a server, and pgbouncer in transaction mode in front of it';
my $node = PostgreSQL::Test::Cluster->new('pool');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid'");
ok($node->start(fail_ok => 1),
	"server with shared_preload_libraries = 'ulid' started")
  or BAIL_OUT("a server with shared_preload_libraries = 'ulid' does not start");

sub query
{
	my ($sql) = @_;
	return $node->safe_psql('postgres', $sql);
}

note query('SELECT version()');
my ($pgb_version) =
  `$pgbouncer --version` =~ /^PgBouncer ([0-9.]+)/m;
note "pgbouncer $pgb_version ($pgbouncer)";
is( $node->psql(
		'postgres', 'CREATE EXTENSION ulid;
	CREATE TABLE per_txn (n bigserial PRIMARY KEY, pid int NOT NULL, id ulid NOT NULL);
	CREATE TABLE per_txn_mono (n bigserial PRIMARY KEY, pid int NOT NULL, id ulid NOT NULL)'
	),
	0,
	'extension and tables')
  or BAIL_OUT('the extension or the tables could not be created');

# pgbouncer's files in a directory of its own; it runs as this test's OS user (the server's), and
# logs in to the server through its Unix socket as the user that runs the test.
my $user = query('SELECT current_user');
my $pgb_dir = PostgreSQL::Test::Utils::tempdir();
my $pgb_port = PostgreSQL::Test::Cluster::get_free_port();
my $server_host = $node->host;
my $server_port = $node->port;
append_to_file(
	"$pgb_dir/pgbouncer.ini", qq([databases]
postgres = host=$server_host port=$server_port dbname=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $pgb_port
unix_socket_dir =
auth_type = trust
auth_file = $pgb_dir/userlist.txt
pool_mode = transaction
default_pool_size = $pool
min_pool_size = $pool
server_round_robin = 1
max_client_conn = 100
logfile = $pgb_dir/pgbouncer.log
pidfile = $pgb_dir/pgbouncer.pid
));
append_to_file("$pgb_dir/userlist.txt", qq("$user" ""\n));

my @via_pgb = ('-h', '127.0.0.1', '-p', $pgb_port, '-U', $user);
my $pgb_pid;

# pgbouncer in the foreground in a child of ours, so that we know (and stop) its pid
sub start_pgbouncer
{
	$pgb_pid = fork;
	die "fork: $!" unless defined $pgb_pid;
	if ($pgb_pid == 0)
	{
		# the child must not run the test's END blocks (they would stop the server)
		open(STDOUT, '>>', "$pgb_dir/stdout.log") or POSIX::_exit(127);
		open(STDERR, '>&', \*STDOUT) or POSIX::_exit(127);
		exec($pgbouncer, "$pgb_dir/pgbouncer.ini")
		  or print STDERR "exec $pgbouncer: $!\n";
		POSIX::_exit(127);
	}
	for (1 .. 100)    # wait (bounded) until it accepts connections
	{
		return 1
		  if IPC::Run::run [ 'psql', '-X', '-At', @via_pgb, '-d', 'postgres',
			'-c', 'SELECT 1' ], '<', '/dev/null', '>', '/dev/null', '2>',
		  '/dev/null';
		if (waitpid($pgb_pid, WNOHANG) == $pgb_pid)
		{
			undef $pgb_pid;
			last;
		}
		usleep(100_000);
	}
	for my $log ('pgbouncer.log', 'stdout.log')
	{
		next unless -f "$pgb_dir/$log";
		my @lines = split /\n/, slurp_file("$pgb_dir/$log");
		diag "$log: $_" for @lines[ ($#lines > 19 ? $#lines - 19 : 0) .. $#lines ];
	}
	return 0;
}

sub stop_pgbouncer
{
	return unless defined $pgb_pid;
	kill 'TERM', $pgb_pid;
	waitpid($pgb_pid, 0);
	undef $pgb_pid;
}

END
{
	local $?;    # the test's exit status
	stop_pgbouncer();
}

ok(start_pgbouncer(),
	"pgbouncer on 127.0.0.1:$pgb_port (pool_mode = transaction, $pool server connections, server_round_robin = 1)"
) or BAIL_OUT('pgbouncer does not start');

# open all server connections: $pool clients holding a transaction at once
my @warm = map {
	IPC::Run::start [ 'psql', '-X', '-At', @via_pgb, '-d', 'postgres', '-c',
		'SELECT pg_sleep(0.5)' ], '<', '/dev/null', '>', '/dev/null', '2>',
	  '/dev/null'
} 1 .. $pool;
$_->finish for @warm;
cmp_ok(
	query(
		"SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
	),
	'>=', 2,
	'server connections pgbouncer keeps open (other client backends of the server)');

# pgbench_client GENERATOR TABLE [pgbench options]: one client, $txns transactions of one INSERT
# each through pgbouncer; returns whether pgbench succeeded, and its output
sub pgbench_client
{
	my ($fn, $table, @opts) = @_;
	my $script = "$pgb_dir/$table.sql";
	unlink $script;
	append_to_file($script,
		"INSERT INTO $table (pid, id) VALUES (pg_backend_pid(), $fn());\n");
	my $out = '';
	my $ok = IPC::Run::run [ 'pgbench', '-n', '-c', '1', '-t', $txns, '-f',
		$script, @opts, @via_pgb, 'postgres' ], '<', '/dev/null', '>', \$out,
	  '2>&1';
	return ($ok, $out);
}

# order_report TABLE: rows, backends, breaks of the client's order, same-millisecond neighbours on
# different backends, per-backend breaks
sub order_report
{
	my ($table) = @_;
	return split /\|/, query(
		"SELECT count(*), count(DISTINCT pid),
		        count(*) FILTER (WHERE id < prev),
		        count(*) FILTER (WHERE pid <> prev_pid AND ulid_to_timestamp(id) = ulid_to_timestamp(prev)),
		        (SELECT count(*) FROM (SELECT id < lag(id) OVER (PARTITION BY pid ORDER BY n) AS b FROM $table) s WHERE b)
		   FROM (SELECT n, pid, id, lag(id) OVER (ORDER BY n) AS prev, lag(pid) OVER (ORDER BY n) AS prev_pid
		           FROM $table) s");
}

# one_client GENERATOR TABLE: the one client's $txns transactions with GENERATOR(), through
# pgbouncer; checks what holds for both generators, returns the breaks of the client's order and
# the same-millisecond neighbours from different backends
sub one_client
{
	my ($fn, $table) = @_;
	my ($ok, $out) = pgbench_client($fn, $table, '-M', 'simple');
	ok($ok, "pgbench -M simple through pgbouncer, $fn(): exit status 0")
	  or diag $out;
	my ($rows, $backends, $breaks, $same_ms, $per_backend) =
	  order_report($table);
	is($rows, $txns, "$fn(): rows (one per transaction of the one client)");
	cmp_ok($backends, '>=', 2,
		"$fn(): backends that ran the client's transactions");
	is($per_backend, 0, "$fn(): order breaks within each backend");
	note
	  "$fn(): the client's $txns values in its own order: $breaks order breaks; "
	  . "$same_ms neighbours came from different backends in the same millisecond";
	return ($breaks, $same_ms);
}

note 'gen_ulid(): strictly increasing within a backend, not within the client\'s connection';
my ($breaks, $same_ms) = one_client('gen_ulid', 'per_txn');
if ($same_ms >= 20)
{
	cmp_ok($breaks, '>=', 1,
		"order breaks in the client's order (>= 20 same-millisecond neighbours from different backends)"
	);
}
else
{
	note 'fewer than 20 same-millisecond neighbours on different backends (a slow run): '
	  . 'the break count is not checked';
}

note 'gen_monotonic_ulid(): one order for the whole server, so for the client too';
($breaks) = one_client('gen_monotonic_ulid', 'per_txn_mono');
is($breaks, 0, "order breaks in the client's order with gen_monotonic_ulid()");

note "protocol-level prepared statements in transaction mode (pgbouncer $pgb_version)";
query('TRUNCATE per_txn');
my ($ok, $out) = pgbench_client('gen_ulid', 'per_txn', '-M', 'extended');
ok($ok,
	'pgbench -M extended (unnamed statements) through pgbouncer: exit status 0')
  or diag $out;
is(query('SELECT count(*) FROM per_txn'),
	$txns, 'pgbench -M extended (unnamed statements) through pgbouncer: rows');
query('TRUNCATE per_txn');
($ok, $out) = pgbench_client('gen_ulid', 'per_txn', '-M', 'prepared');
my ($pgb_major, $pgb_minor) = split /\./, $pgb_version;
if ($pgb_major == 1 && $pgb_minor < 21)    # pgbouncer 1.21; version-gates: not a gate
{
	like(
		$out,
		qr/prepared statement "P[_0-9]*" does not exist/,
		"pgbench -M prepared through pgbouncer $pgb_version: a prepared statement is not there on the next backend"
	);
	my ($error) = $out =~ /(ERROR: .*)/;
	note 'pgbench: ' . ($error // '');
	note 'rows inserted before the failure: '
	  . query('SELECT count(*) FROM per_txn')
	  . " of $txns";
	note
	  "pgbouncer 1.21 and later (max_prepared_statements) prepare them where they run; Debian 12 has $pgb_version";
}
else
{
	note
	  "pgbouncer $pgb_version >= 1.21: with max_prepared_statements, prepared statements work in transaction mode";
}

stop_pgbouncer();
done_testing();
