# Independent generators: 4 servers of its own, no coordination between them, each minting
# 250,000 ids with gen_ulid(); the merged ids are unique, each server's ids increase in insertion
# order, and across servers id order follows the clock.
#
# Each server has one session that inserts 250,000 rows with id DEFAULT gen_ulid() into its own
# table, in 25 rounds of 10,000 rows. In each round the 4 servers run at the same time; the next
# round starts when all 4 have finished (a barrier: the only thing the servers share is the clock).
# All rows are then copied into one table on server 1 with binary COPY (ulid_send/ulid_recv), one
# psql piped into another. Checks:
#   - the union has 1,000,000 rows, 250,000 per server, no duplicate id (count and a unique index),
#     and each server's rows in it are those of its own table;
#   - each server's ids are strictly increasing in its insertion order;
#   - sorted by id, ulid_to_timestamp is non-decreasing and the servers interleave (the number of
#     times the server changes between neighbours, at least one per round);
#   - causality across servers: every id of round r carries a millisecond no earlier than every id
#     of round r-1 (round r started after round r-1 ended), so across servers id order is time
#     order, except inside one shared millisecond (those are counted and printed as notes).
# The generation is bounded by ULID_GEN_WAIT seconds (default 300): a limit, not an assertion.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;
use IPC::Run;
use Time::HiRes qw(time sleep);

my $SERVERS = 4;
my $ROUNDS = 25;
my $BATCH = 10000;
my $PER_SERVER = $ROUNDS * $BATCH;
my $TOTAL = $SERVERS * $PER_SERVER;
my $WAIT = $ENV{ULID_GEN_WAIT} || 300;

# psql_argv(NODE): a psql command line for NODE's postgres database (psql of the server under test,
# first on PATH)
sub psql_argv
{
	my ($node) = @_;
	return ('psql', '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1',
		'-d', $node->connstr('postgres'));
}

note("setup: $SERVERS servers");
my @g;
for my $k (1 .. $SERVERS)
{
	$g[$k] = PostgreSQL::Test::Cluster->new("g$k");
	must_run("start server g$k",
		sub { $g[$k]->init; $g[$k]->start(fail_ok => 1) or die "pg_ctl start failed\n"; });
	must_run(
		"g$k: extension ulid, table ids (seq bigserial, round, id ulid PRIMARY KEY DEFAULT gen_ulid())",
		sub {
			$g[$k]->safe_psql('postgres',
				'CREATE EXTENSION ulid; CREATE TABLE ids (seq bigserial, round int NOT NULL, '
				  . 'id ulid PRIMARY KEY DEFAULT gen_ulid())');
		});
}
note($g[1]->safe_psql('postgres', 'SELECT version()'));

note("generation: $ROUNDS rounds x $BATCH rows on each server, one session per server");
my (@in, @out, @session);
for my $k (1 .. $SERVERS)
{
	$in[$k] = '';
	$out[$k] = '';
	$session[$k] =
	  IPC::Run::start([ psql_argv($g[$k]) ], '<', \$in[$k], '>&', \$out[$k]);
}
my $start = time;
my $failed;
ROUND: for my $r (1 .. $ROUNDS)
{
	# "\echo round R" tells that round R is done
	$in[$_] .= "INSERT INTO ids (round) SELECT $r FROM generate_series(1, $BATCH);\n"
	  . "\\echo round $r\n"
	  for 1 .. $SERVERS;
	my %done;
	while (keys %done < $SERVERS)
	{
		for my $k (grep { !$done{$_} } 1 .. $SERVERS)
		{
			eval { $session[$k]->pump_nb if $session[$k]->pumpable; };
			if ($out[$k] =~ /^round $r$/m)
			{
				$done{$k} = 1;
			}
			elsif (!$session[$k]->pumpable || time - $start > $WAIT)
			{
				fail("g$k: session ended or timed out in round $r");
				diag("g$k: psql output:\n$out[$k]");
				$failed = 1;
				last ROUND;
			}
		}
		sleep(0.02) if keys %done < $SERVERS;
	}
}
for my $k (1 .. $SERVERS)
{
	$in[$k] .= "\\q\n";
	my $clean = eval { $session[$k]->finish; };
	$failed = 1 unless $clean;
}
BAIL_OUT('the generation did not complete') if $failed;
pass(sprintf('generation: %d rounds on %d servers done in %.0f s', $ROUNDS, $SERVERS, time - $start));
for my $k (1 .. $SERVERS)
{
	is($g[$k]->safe_psql('postgres', 'SELECT count(*) FROM ids'), $PER_SERVER, "g$k: rows");
}

note('union on g1 (binary COPY out of every server, into g1)');
must_run(
	'g1: table all_ids (server, seq, round, id)',
	sub {
		$g[1]->safe_psql('postgres',
			'CREATE TABLE all_ids (server int NOT NULL, seq bigint NOT NULL, round int NOT NULL, id ulid NOT NULL)'
		);
	});
for my $k (1 .. $SERVERS)
{
	must_run(
		"COPY g$k.ids TO STDOUT (FORMAT binary) | COPY g1.all_ids FROM STDIN (FORMAT binary)",
		sub {
			my ($err_out, $err_in) = ('', '');
			IPC::Run::run(
				[
					psql_argv($g[$k]), '-c',
					"COPY (SELECT $k, seq, round, id FROM ids) TO STDOUT (FORMAT binary)"
				],
				'2>',
				\$err_out,
				'|',
				[ psql_argv($g[1]), '-c', 'COPY all_ids FROM STDIN (FORMAT binary)' ],
				'2>',
				\$err_in)
			  or die "COPY pipe failed: $err_out $err_in\n";
		});
}
my $q = sub { $g[1]->safe_psql('postgres', $_[0]) };
is($q->('SELECT count(*) FROM all_ids'), $TOTAL, 'union: rows');
is( $q->(
		"SELECT count(*) FROM (SELECT server FROM all_ids GROUP BY 1 HAVING count(*) = $PER_SERVER) s"
	),
	$SERVERS,
	"union: servers with $PER_SERVER rows");
is($q->('SELECT count(*) - count(DISTINCT id) FROM all_ids'), 0, 'union: duplicate ids');
my ($rc, $stdout, $stderr) =
  $g[1]->psql('postgres', 'CREATE UNIQUE INDEX all_ids_id ON all_ids (id)');
is($rc, 0, 'union: CREATE UNIQUE INDEX on id succeeds') or diag($stderr);
for my $k (1 .. $SERVERS)
{
	is( $q->(
			"SELECT md5(string_agg(id::text || ':' || round, ',' ORDER BY seq)) FROM all_ids WHERE server = $k"
		),
		$g[$k]->safe_psql('postgres',
			"SELECT md5(string_agg(id::text || ':' || round, ',' ORDER BY seq)) FROM ids"),
		"union: server ${k}'s rows in all_ids equal g${k}'s table (ids in seq order)");
}

note('order');
is( $q->(
		'SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY server ORDER BY seq) AS prev
		                       FROM all_ids) s WHERE prev >= id'),
	0,
	'per server: ids not strictly increasing in insertion order (seq)');
my ($back, $switches, $shared) = split /\|/, $q->(
	'SELECT count(*) FILTER (WHERE ts < prev_ts), count(*) FILTER (WHERE server <> prev_server),
	        (SELECT count(*) FROM (SELECT 1 FROM all_ids GROUP BY ulid_to_timestamp(id)
	                               HAVING count(DISTINCT server) > 1) m)
	 FROM (SELECT server, ulid_to_timestamp(id) AS ts,
	              lag(ulid_to_timestamp(id)) OVER w AS prev_ts, lag(server) OVER w AS prev_server
	       FROM all_ids WINDOW w AS (ORDER BY id)) s');
is($back, 0, 'union sorted by id: ulid_to_timestamp going backwards');
cmp_ok($switches, '>=', $ROUNDS,
	'union sorted by id: neighbours from different servers (interleaving; at least one per round)');
note("milliseconds holding ids of more than one server: $shared");
is( $q->(
		'SELECT count(*) FROM all_ids a
		 JOIN (SELECT round + 1 AS next_round, max(ulid_to_timestamp(id)) AS prev_max
		       FROM all_ids GROUP BY round) p ON a.round = p.next_round
		 WHERE ulid_to_timestamp(a.id) < p.prev_max'),
	0,
	'causality: ids of round r with an earlier millisecond than an id of round r-1 (any servers)');
note(
	'rounds whose lowest id sorts below the previous round\'s highest (possible only inside a shared millisecond): '
	  . $q->(
		'SELECT count(*) FROM (SELECT round, min(id) AS lo, max(id) AS hi FROM all_ids GROUP BY round) r
		 JOIN (SELECT round, min(id) AS lo FROM all_ids GROUP BY round) n ON n.round = r.round + 1
		 WHERE n.lo < r.hi'));

done_testing();
