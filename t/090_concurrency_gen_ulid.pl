# Concurrency: many backends generating ULIDs at once on a real server (pgbench).
#
# A server of its own, extensions ulid and amcheck. Two rounds, each 8 pgbench clients on 2 threads
# for ULID_CONC_SECONDS (default 10) seconds; a transaction is two 25-row INSERTs, one naming the
# generator, one taking the column DEFAULT (both make the key in the backend). Table:
# seq bigserial, pid int DEFAULT pg_backend_pid(), id ulid PRIMARY KEY DEFAULT <generator>.
#
# Round 1, gen_ulid() (the monotonic per-backend generator, also as the column DEFAULT):
#   pgbench exits 0, processes transactions, none failed (its count, 15+) and no client aborted;
#   rows were written by every client, no duplicate id, within each backend the ids are strictly
#   increasing in insertion order (seq), and amcheck's bt_index_parent_check (with heapallindexed)
#   passes on the primary key.
# Round 2, gen_random_ulid(), with a hash and a BRIN index on id as well:
#   the same, except monotonicity (it makes no such promise); plus every row is found through the
#   hash index and through the BRIN index (the primary key dropped inside a rolled-back
#   transaction, sequential scans and hash/merge joins off).
#
# pgbench before 15 counts no failed transactions: there, its exit status and the absence of
# "aborted" in its output tell.

use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $DURATION = $ENV{ULID_CONC_SECONDS} // 10;
my $CLIENTS = 8;
my $THREADS = 2;
my $BATCH = 25;    # rows per INSERT; each pgbench transaction runs two INSERTs

my $work = PostgreSQL::Test::Utils::tempdir();

my $node = PostgreSQL::Test::Cluster->new('conc');

# query / sql_ok SQL: t/lib/UlidTest.pm's, on $node
sub query { return node_query($node, @_); }
sub sql_ok { return node_sql_ok($node, @_); }

# round LABEL, TABLE, GENERATOR, MONOTONIC, EXTRA_INDEXES
sub round
{
	my ($label, $t, $gen, $monotonic, $extra) = @_;
	note("round $label: table $t, id DEFAULT $gen, $CLIENTS clients x ${DURATION}s, $THREADS threads");
	if (!ok( sql_ok(
				"SET client_min_messages = warning;
				 DROP TABLE IF EXISTS $t;
				 CREATE TABLE $t (seq bigserial, pid int DEFAULT pg_backend_pid(),
				                  id ulid PRIMARY KEY DEFAULT $gen);"),
			"$label: create table $t"))
	{
		return;
	}
	if ($extra)
	{
		ok( sql_ok(
				"CREATE INDEX ${t}_id_hash ON $t USING hash (id);
				 CREATE INDEX ${t}_id_brin ON $t USING brin (id) WITH (pages_per_range = 8);"),
			"$label: hash and BRIN indexes on id created");
	}

	# one INSERT naming the generator, one taking the column DEFAULT: both make the key in the backend
	my $script = "$work/$t.sql";
	PostgreSQL::Test::Utils::append_to_file($script,
		    "INSERT INTO $t (id) SELECT $gen FROM generate_series(1, $BATCH);\n"
		  . "INSERT INTO $t (pid) SELECT pg_backend_pid() FROM generate_series(1, $BATCH);\n");
	my ($out, $err) = ('', '');
	my $ran = IPC::Run::run(
		[
			'pgbench', '-n', '-c', $CLIENTS, '-j', $THREADS, '-T', $DURATION,
			'-f', $script, '-h', $node->host, '-p', $node->port, 'postgres'
		],
		'<', \undef, '>', \$out, '2>', \$err);
	my $all = $out . $err;
	note("  pgbench: $_") for split /\n/, $all;
	ok($ran, "$label: pgbench exit status 0") or diag("pgbench exit status " . ($? >> 8));
	my ($processed) = $all =~ /^number of transactions actually processed: (\d+)/m;
	cmp_num($processed, '>', 0, "$label: pgbench transactions processed");
	my ($failed) = $all =~ /^number of failed transactions: (\d+)/m;
	if (defined $failed)
	{
		cmp_num($failed, '==', 0, "$label: pgbench failed transactions");
	}
	else
	{
		# pgbench before 15 has no such count: a failed transaction aborts its client (checked below)
		note("$label: this pgbench counts no failed transactions; its exit status and aborted clients tell");
	}
	unlike($all, qr/aborted/, "$label: no pgbench client aborted");

	my $total = query("SELECT count(*) FROM $t");
	cmp_num($total, '>', 0, "$label: total rows");
	cmp_num(query("SELECT count(DISTINCT pid) FROM $t"),
		'==', $CLIENTS, "$label: backends that inserted");
	cmp_num(query("SELECT count(*) - count(DISTINCT id) FROM $t"),
		'==', 0, "$label: duplicate ids");
	if ($monotonic)
	{
		cmp_num(
			query(
				"SELECT count(*) FROM (
				     SELECT id, lag(id) OVER (PARTITION BY pid ORDER BY seq) AS prev FROM $t
				 ) s WHERE prev IS NOT NULL AND NOT (id > prev)"),
			'==', 0,
			"$label: per-backend monotonicity violations (id <= previous id of that backend)");
	}
	ok(sql_ok("SELECT bt_index_parent_check('${t}_pkey'::regclass, true)"),
		"$label: bt_index_parent_check(${t}_pkey, heapallindexed) passes");
	if ($extra)
	{
		# With the primary key out of the way (rolled back), the planner can only reach rows through
		# the hash index (equality) and the BRIN index (range); every row counted above (plain plan)
		# must be found both ways.
		my $found = query(
			"BEGIN;
			 ALTER TABLE $t DROP CONSTRAINT ${t}_pkey;
			 SET LOCAL enable_seqscan = off;
			 SET LOCAL enable_hashjoin = off;
			 SET LOCAL enable_mergejoin = off;
			 SELECT (SELECT count(*) FROM $t a WHERE EXISTS (SELECT FROM $t b WHERE b.id = a.id))
			        || ' ' ||
			        (SELECT count(*) FROM $t WHERE id BETWEEN (SELECT min(id) FROM $t)
			                                            AND (SELECT max(id) FROM $t));
			 ROLLBACK;");
		my ($via_hash, $via_brin) = split ' ', $found;
		$total = 0 if $total eq '';
		cmp_num($via_hash, '==', $total, "$label: rows found through the hash index (of $total)");
		cmp_num($via_brin, '==', $total, "$label: rows found through the BRIN index (of $total)");
	}
	return;
}

$node->init;
$node->start;
if (ok( sql_ok('CREATE EXTENSION ulid; CREATE EXTENSION amcheck;'),
		'extensions ulid and amcheck available'))
{
	note('ulid '
		  . query("SELECT extversion FROM pg_extension WHERE extname = 'ulid'") . ', '
		  . query('SELECT version()'));
	round('gen_ulid', 'conc_gen_ulid', 'gen_ulid()', 1, 0);
	round('gen_random_ulid', 'conc_gen_random_ulid', 'gen_random_ulid()', 0, 1);
}

done_testing();
