# Crash recovery: the server is killed (pg_ctl stop -m immediate) while clients insert ulid keys;
# after the restart every id a client saw committed is there, no rolled-back one is, no id twice,
# and the b-tree, hash and BRIN indexes on the ulid key find every row.
#
# A server of its own. Table crash_t: id ulid PRIMARY KEY DEFAULT gen_ulid() (btree), a hash index
# and a BRIN index on id, 20,000 rows loaded and checkpointed first. Each round:
#   - 4 clients (psql fed an endless stream of statements by yes) insert with DEFAULT gen_ulid():
#     two single-row autocommit INSERT ... RETURNING id, one 5-row explicit transactions, one
#     alternating committed and rolled-back 3-row transactions. A client's output (its log) gets an
#     id only after psql got the INSERT's result (autocommit) or after its COMMIT returned (an \echo
#     after COMMIT; ON_ERROR_STOP), so the log holds exactly the ids the client saw committed; ids
#     of a transaction still open at the crash are "in doubt";
#   - a CHECKPOINT in the middle, then pg_ctl stop -m immediate while the clients run; restart
#     (crash recovery must be in the server log);
#   - every id a client saw committed is in the table (counted), no rolled-back id is, no
#     duplicate; amcheck bt_index_parent_check(heapallindexed) on the primary key; every row is
#     found through the hash index (amcheck has no hash checker: with the primary key dropped
#     inside a rolled-back transaction and seq/bitmap scans off, each row is looked up by id and
#     must come back with its own ctid); brin_summarize_new_values() works and BRIN scans find
#     every row; new inserts after recovery work.
#
# fsync stays off (the framework's default): an immediate stop kills processes, not the kernel, so
# WAL written before COMMIT returned survives either way. ULID_CRASH_ROUNDS (default 2) and
# ULID_CRASH_SECONDS (default 4, load time before the crash).

use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $ROUNDS = $ENV{ULID_CRASH_ROUNDS} // 2;
my $SECONDS_BEFORE_CRASH = $ENV{ULID_CRASH_SECONDS} // 4;
my $PRELOAD = 20000;

my $work = PostgreSQL::Test::Utils::tempdir();

my $node = PostgreSQL::Test::Cluster->new('crash');

# query / sql_ok SQL: t/lib/UlidTest.pm's, on $node
sub query { return node_query($node, @_); }
sub sql_ok { return node_sql_ok($node, @_); }

note(
	"a server of its own, $ROUNDS round(s), ${SECONDS_BEFORE_CRASH}s of inserts before each crash");
$node->init;
$node->append_conf(
	'postgresql.conf', q{
max_connections = 50
checkpoint_timeout = 30min
max_wal_size = 1GB
log_min_messages = log
});    # log_min_messages: for the recovery messages (LOG level)
ok($node->start(fail_ok => 1), 'server starts') or BAIL_OUT('the server does not start');

ok( sql_ok(
			"CREATE EXTENSION ulid; CREATE EXTENSION amcheck;
		CREATE TABLE crash_t (id ulid PRIMARY KEY DEFAULT gen_ulid(), client int NOT NULL,
		                      payload text NOT NULL DEFAULT repeat('x', 100));
		CREATE INDEX crash_t_id_hash ON crash_t USING hash (id);
		CREATE INDEX crash_t_id_brin ON crash_t USING brin (id) WITH (pages_per_range = 4);
		INSERT INTO crash_t (client) SELECT 0 FROM generate_series(1, $PRELOAD);")
		  && sql_ok('CHECKPOINT'),
	"table with btree, hash and BRIN indexes on a ulid key, $PRELOAD rows");
note('ulid '
	  . query("SELECT extversion FROM pg_extension WHERE extname = 'ulid'") . ', '
	  . query('SELECT version()'));

# client N, MODE: psql fed an endless stream of statements by yes; its stdout is the client's log
sub client
{
	my ($n, $mode) = @_;
	my $stmt;
	if ($mode eq 'single')
	{
		$stmt = "INSERT INTO crash_t (client) VALUES ($n) RETURNING id;";
	}
	elsif ($mode eq 'txn')
	{
		$stmt =
		  "BEGIN;\nINSERT INTO crash_t (client) SELECT $n FROM generate_series(1, 5) RETURNING id;\nCOMMIT;\n\\echo C";
	}
	else
	{
		$stmt =
		    "BEGIN;\nINSERT INTO crash_t (client) SELECT $n FROM generate_series(1, 3) RETURNING id;\nCOMMIT;\n\\echo C\n"
		  . "BEGIN;\nINSERT INTO crash_t (client) SELECT $n FROM generate_series(1, 3) RETURNING id;\nROLLBACK;\n\\echo R";
	}
	return IPC::Run::start(
		[ 'yes', $stmt ], '|',
		[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-At', '-d', $node->connstr('postgres') ],
		'>', "$work/client.$n.log", '2>', "$work/client.$n.err");
}

# split_log FILE, MODE: the ids of a client's log as (committed, rolled back, in doubt) array refs
sub split_log
{
	my ($file, $mode) = @_;
	my (@committed, @rolledback, @buf);
	for my $line (split /\n/, slurp_file($file))
	{
		if ($line =~ /^[0-9A-Z]{26}$/)
		{
			push @buf, $line;
		}
		elsif ($mode ne 'single' && ($line eq 'C' || $line eq 'R'))
		{
			push @{ $line eq 'C' ? \@committed : \@rolledback }, @buf;
			@buf = ();
		}
	}
	# single-row autocommit inserts: an id printed is an id committed
	return ([@buf], [], []) if $mode eq 'single';
	return (\@committed, \@rolledback, \@buf);
}

# copy_in TABLE, IDS: COPY the ids into TABLE (data inline, as psql -f reads COPY FROM STDIN)
sub copy_in
{
	my ($table, $ids) = @_;
	return sql_ok("COPY $table FROM STDIN;\n" . join('', map { "$_\n" } @$ids) . "\\.\n");
}

my @MODES = qw(single single txn mixed);
my $total_committed = 0;

for my $round (1 .. $ROUNDS)
{
	note(
		"round $round: "
		  . scalar(@MODES)
		  . " clients (@MODES), CHECKPOINT midway, then pg_ctl stop -m immediate");
	my $before = query('SELECT count(*) FROM crash_t');
	my @clients =
	  map { client($round * 10 + $_, $MODES[ $_ - 1 ]) } 1 .. scalar(@MODES);
	sleep(int($SECONDS_BEFORE_CRASH / 2));
	ok(sql_ok('CHECKPOINT'), "round $round: CHECKPOINT during the load");
	sleep($SECONDS_BEFORE_CRASH - int($SECONDS_BEFORE_CRASH / 2));
	my $alive = grep { $_->pumpable } @clients;
	is($alive, scalar(@MODES),
		"round $round: clients still inserting when the server is killed");
	ok($node->stop('immediate', fail_ok => 1),
		"round $round: pg_ctl stop -m immediate");
	$_->finish for @clients;    # their exit status: connection lost, as checked next
	my $lost = 0;
	for my $c (1 .. scalar(@MODES))
	{
		my $err = slurp_file("$work/client." . ($round * 10 + $c) . '.err');
		$lost++
		  if $err =~
		  /server closed the connection|connection to server .* (lost|failed)|terminating connection|no connection to the server/i;
	}
	is($lost, scalar(@MODES),
		"round $round: clients that saw their connection die");

	my $log_offset = -s $node->logfile;
	if (!ok($node->start(fail_ok => 1), "round $round: restart"))
	{
		last;
	}
	my $recovery = slurp_file($node->logfile, $log_offset);
	like(
		$recovery,
		qr/automatic recovery in progress/,
		"round $round: the start-up ran crash recovery (server log)");
	like($recovery, qr/redo done at/,
		"round $round: redo replayed WAL (server log)");
	unlike($recovery, qr/PANIC|FATAL/,
		"round $round: no PANIC or FATAL during recovery");

	# what the clients saw
	my (@committed, @rolledback);
	for my $c (1 .. scalar(@MODES))
	{
		my $n = $round * 10 + $c;
		my ($com, $rb, $doubt) =
		  split_log("$work/client.$n.log", $MODES[ $c - 1 ]);
		push @committed, @$com;
		push @rolledback, @$rb;
		note(
			"round $round client $n ($MODES[$c - 1]): "
			  . scalar(@$com)
			  . ' committed, '
			  . scalar(@$rb)
			  . ' rolled back, '
			  . scalar(@$doubt)
			  . ' in doubt');
	}
	my $n_committed = scalar(@committed);
	my $n_rolledback = scalar(@rolledback);
	$total_committed += $n_committed;
	cmp_ok($n_committed, '>', 0,
		"round $round: ids the clients saw committed ($n_committed)");
	cmp_ok($n_rolledback, '>', 0,
		"round $round: ids the clients saw rolled back ($n_rolledback)");

	sql_ok(
		'SET client_min_messages = warning; DROP TABLE IF EXISTS seen, gone;
		 CREATE TABLE seen (id ulid); CREATE TABLE gone (id ulid);');
	copy_in('seen', \@committed);
	copy_in('gone', \@rolledback);
	is(query('SELECT count(*) FROM seen'),
		$n_committed, "round $round: committed ids loaded for the check");
	is( query(
			'SELECT count(*) FROM seen s WHERE NOT EXISTS (SELECT FROM crash_t t WHERE t.id = s.id)'
		),
		'0',
		"round $round: committed ids missing after recovery (of $n_committed)");
	is( query(
			'SELECT count(*) FROM gone g WHERE EXISTS (SELECT FROM crash_t t WHERE t.id = g.id)'
		),
		'0',
		"round $round: rolled-back ids present after recovery (of $n_rolledback)"
	);
	my $after = query('SELECT count(*) FROM crash_t');
	note("round $round: table rows $before before, $after after recovery");
	cmp_num(
		$after ne '' && $before ne '' ? $after - $before - $n_committed : '',
		'>=', 0, "round $round: rows gained at least the committed ids");
	is(query('SELECT count(*) - count(DISTINCT id) FROM crash_t'),
		'0', "round $round: duplicate ids");

	ok( sql_ok(
			"SELECT bt_index_parent_check('crash_t_pkey'::regclass, true)"),
		"round $round: bt_index_parent_check(crash_t_pkey, heapallindexed) passes"
	);

	# hash: every row looked up by its id through the hash index comes back (with its own ctid)
	my $hash_sql = 'BEGIN;
		ALTER TABLE crash_t DROP CONSTRAINT crash_t_pkey;
		SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
		SET LOCAL enable_tidscan = off; SET LOCAL enable_hashjoin = off;
		SET LOCAL enable_mergejoin = off; SET LOCAL enable_material = off;';
	like(
		query(
			"$hash_sql EXPLAIN (COSTS OFF) SELECT count(*) FROM crash_t a
			 WHERE NOT EXISTS (SELECT FROM crash_t b WHERE b.id = a.id AND b.ctid = a.ctid); ROLLBACK;"
		),
		qr/Index Scan using crash_t_id_hash/,
		"round $round: the lookup runs as an index scan of crash_t_id_hash");
	is( query(
			"$hash_sql SELECT count(*) FROM crash_t a
			 WHERE NOT EXISTS (SELECT FROM crash_t b WHERE b.id = a.id AND b.ctid = a.ctid); ROLLBACK;"
		),
		'0',
		"round $round: rows not found through the hash index (of $after)");
	is( query(
			"$hash_sql SELECT count(*) FROM seen s
			 WHERE NOT EXISTS (SELECT FROM crash_t b WHERE b.id = s.id); ROLLBACK;"),
		'0',
		"round $round: committed ids not found through the hash index (of $n_committed)"
	);

	# BRIN: summarise what the crash left unsummarised, then scan through it
	cmp_num(query("SELECT brin_summarize_new_values('crash_t_id_brin')"),
		'>=', 0,
		"round $round: brin_summarize_new_values(crash_t_id_brin) ranges summarised"
	);
	my $brin_sql = 'BEGIN;
		ALTER TABLE crash_t DROP CONSTRAINT crash_t_pkey; DROP INDEX crash_t_id_hash;
		SET LOCAL enable_seqscan = off;';
	like(
		query(
			"$brin_sql EXPLAIN (COSTS OFF) SELECT count(*) FROM crash_t
			 WHERE id BETWEEN '00000000000000000000000000' AND '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'; ROLLBACK;"
		),
		qr/Bitmap Index Scan on crash_t_id_brin/,
		"round $round: the range count runs through crash_t_id_brin");
	is( query(
			"$brin_sql SELECT count(*) FROM crash_t
			 WHERE id BETWEEN (SELECT min(id) FROM crash_t) AND (SELECT max(id) FROM crash_t); ROLLBACK;"
		),
		$after,
		"round $round: rows found by a BRIN range scan (of $after)");
	is( query(
			"$brin_sql SELECT count(*) FROM (SELECT id FROM seen ORDER BY id LIMIT 200) s
			 WHERE NOT EXISTS (SELECT FROM crash_t b WHERE b.id = s.id); ROLLBACK;"),
		'0',
		"round $round: 200 committed ids not found by BRIN point lookups");

	# the generator and all indexes keep working
	ok( sql_ok(
			"INSERT INTO crash_t (client) SELECT -$round FROM generate_series(1, 1000)"
		),
		"round $round: 1000 inserts with DEFAULT gen_ulid() after recovery");
	is(query('SELECT count(*) - count(DISTINCT id) FROM crash_t'),
		'0', "round $round: duplicate ids after the new inserts");
}

note("ids seen committed over all rounds: $total_committed; rows now: "
	  . query('SELECT count(*) FROM crash_t'));

done_testing();
