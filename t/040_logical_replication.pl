# Logical replication of ulid columns between two servers of its own: a publisher and a subscriber
# with one text-mode and one binary-mode subscription, through the initial table sync, inserts,
# updates and deletes by ulid key, and a REPLICA IDENTITY FULL table.
#
# The publisher (wal_level = logical) publishes two tables: docs (ulid primary key with DEFAULT
# gen_ulid(), a nullable ulid, a ulid[] with NULL elements, ...) and notes (no key, REPLICA IDENTITY
# FULL, so the subscriber finds rows by comparing every column, ulid and ulid[] included). The
# subscriber server has two databases, each with one subscription to the same publication: sub_text
# (the default text mode) and sub_bin (binary = true: ulid_send/ulid_recv and array_send/array_recv
# on the wire). The publication and the subscriptions are the statements of docs/scaling-out.md
# (test/suites/recipes/logical_replication.sql), each run on its node with this run's publisher.
# Checks:
#   - the initial table sync copies the rows that were there before the subscription;
#   - then inserts, updates by ulid key (one-row, by key range, one that changes the key itself) and
#     deletes by ulid key arrive; notes are updated and deleted through their full-row identity;
#   - after each phase both subscriber databases hold exactly the publisher's rows: the text COPY and
#     the binary COPY of every table are byte-identical on all three, and the count is the same;
#   - no apply or sync errors (pg_stat_subscription_stats, 15+; the subscriber's log), and amcheck
#     passes on the subscribers' primary keys.
# Before PostgreSQL 14 subscriptions have no binary mode: sub_text only, and the refusal is checked.
# Waiting for replication is bounded (ULID_REPL_WAIT seconds, default 90): a limit, not an assertion.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;
use Digest::MD5 qw(md5_hex);
use Time::HiRes qw(time sleep);

my $WAIT = $ENV{ULID_REPL_WAIT} || 90;
# the subscriber's databases, each with a subscription of the same name
my @subs = qw(sub_text sub_bin);

my $TABLES_SQL = q{
CREATE TABLE docs (
    id        ulid PRIMARY KEY DEFAULT gen_ulid(),
    parent_id ulid,
    tags      ulid[] NOT NULL DEFAULT '{}',
    created   timestamptz NOT NULL,
    body      text
);
CREATE TABLE notes (ref ulid NOT NULL, refs ulid[], body text NOT NULL);
ALTER TABLE notes REPLICA IDENTITY FULL;};

note('setup: publisher + subscriber');
my $pub = PostgreSQL::Test::Cluster->new('pub');
must_run(
	'start publisher (wal_level = logical)',
	sub {
		$pub->init(allows_streaming => 'logical');
		$pub->start(fail_ok => 1) or die "pg_ctl start failed\n";
	});
my $sub = PostgreSQL::Test::Cluster->new('sub');
must_run(
	'start subscriber',
	sub {
		$sub->init;
		$sub->append_conf('postgresql.conf', 'wal_retrieve_retry_interval = 200ms');
		$sub->start(fail_ok => 1) or die "pg_ctl start failed\n";
	});
note($pub->safe_psql('postgres', 'SELECT version()'));
my $pgnum = $pub->safe_psql('postgres', 'SHOW server_version_num');
if ($pgnum < 140000)
{
	@subs = qw(sub_text);
	note('subscriptions have no binary mode before PostgreSQL 14: sub_text only (the error is checked below)');
}
must_run('publisher: extension ulid, tables docs and notes',
	sub { $pub->safe_psql('postgres', "CREATE EXTENSION ulid; $TABLES_SQL") });
for my $db (@subs)
{
	must_run(
		"subscriber: database $db with extension ulid, amcheck and the same tables",
		sub {
			$sub->safe_psql('postgres', "CREATE DATABASE $db");
			$sub->safe_psql($db, "CREATE EXTENSION ulid; CREATE EXTENSION amcheck; $TABLES_SQL");
		});
}

# rows_sql(N, LABEL): N new docs rows (ids from the DEFAULT), with NULLs and NULL array elements
sub rows_sql
{
	my ($n, $label) = @_;
	return "INSERT INTO docs (parent_id, tags, created, body)
	        SELECT CASE WHEN g % 5 = 0 THEN NULL
	                    ELSE gen_ulid(timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute') END,
	               CASE WHEN g % 7 = 0 THEN ARRAY[NULL::ulid, gen_random_ulid()]
	                    ELSE ARRAY(SELECT gen_random_ulid() FROM generate_series(1, g % 4)) END,
	               clock_timestamp(), '$label ' || g
	        FROM generate_series(1, $n) g";
}
must_run(
	'publisher: 2000 docs rows and 200 notes rows before the subscriptions exist',
	sub {
		$pub->safe_psql('postgres',
			rows_sql(2000, 'initial') . ";
			INSERT INTO notes SELECT gen_random_ulid(), ARRAY[gen_random_ulid(), NULL, gen_random_ulid()], 'note ' || g
			FROM generate_series(1, 200) g");
	});

# the statements of docs/scaling-out.md, each on its node, with this run's connection string for
# the publisher
my $recipe = slurp_file('test/suites/recipes/logical_replication.sql');
my $conn = $pub->connstr . ' dbname=postgres';
# statement(PREFIX): the recipe's line that starts with PREFIX, with this run's publisher
sub statement
{
	my ($prefix) = @_;
	my ($line) = grep { index($_, $prefix) == 0 } split /\n/, $recipe;
	die "no line starting with '$prefix' in the recipe\n" unless defined $line;
	$line =~ s/host=publisher\.example port=5432 dbname=postgres user=postgres/$conn/;
	return $line;
}
is(scalar(grep { /^CREATE (?:PUBLICATION|SUBSCRIPTION) / } split /\n/, $recipe),
	3, 'recipe: one CREATE PUBLICATION and two CREATE SUBSCRIPTION lines');
must_run('publisher: ' . statement('CREATE PUBLICATION '),
	sub { $pub->safe_psql('postgres', statement('CREATE PUBLICATION ')) });
must_run('subscriber: CREATE SUBSCRIPTION sub_text (default text mode), from the recipe',
	sub { $sub->safe_psql('sub_text', statement('CREATE SUBSCRIPTION sub_text ')) });
if ($pgnum >= 140000)
{
	must_run('subscriber: CREATE SUBSCRIPTION sub_bin WITH (binary = true), from the recipe',
		sub { $sub->safe_psql('sub_bin', statement('CREATE SUBSCRIPTION sub_bin ')) });
	is( $sub->safe_psql('postgres',
			"SELECT string_agg(subname || '=' || subbinary, ' ' ORDER BY subname DESC) FROM pg_subscription"),
		'sub_text=false sub_bin=true',
		'pg_subscription.subbinary of sub_text, sub_bin');
}
else
{
	# tried on the publisher's server, whose log is not checked for errors
	my ($rc, $stdout, $stderr) = $pub->psql('postgres',
		"CREATE SUBSCRIPTION sub_bin CONNECTION '$conn' PUBLICATION pub WITH (binary = true, connect = false)");
	like($stderr, qr/unrecognized subscription parameter: "binary"/,
		'before 14: WITH (binary = true) is refused');
}

# digest(NODE, DB, TABLE, FORMAT): md5 of COPY (the table in key order) TO STDOUT, preceded by the
# row count for the text format. A binary COPY of an array holds its element type's OID, which
# differs between databases for an extension's type: the binary form compares every ulid[] as an
# array of the elements' 16 bytes (ulid_send) instead. Empty when the COPY fails.
sub digest
{
	my ($node, $db, $table, $format) = @_;
	my ($order, $cols) = ('id', '*');
	$order = 'ref, body' if $table eq 'notes';
	if ($format eq 'binary')
	{
		$cols =
		  $table eq 'notes'
		  ? 'ref, ARRAY(SELECT ulid_send(e) FROM unnest(refs) e) AS refs, body'
		  : 'id, parent_id, ARRAY(SELECT ulid_send(e) FROM unnest(tags) e) AS tags, created, body';
	}
	my ($rc, $out, $err) = $node->psql($db,
		"COPY (SELECT $cols FROM $table ORDER BY $order) TO STDOUT (FORMAT $format)");
	if ($rc != 0)
	{
		diag("COPY of $table on " . $node->name . "/$db failed: $err");
		return '';
	}
	return md5_hex($out) if $format eq 'binary';
	my $rows = $out eq '' ? 0 : ($out =~ tr/\n//) + 1;
	return "$rows " . md5_hex($out);
}

# wait_until(CODE): call CODE until it returns true or WAIT seconds have passed; the seconds waited
sub wait_until
{
	my ($code) = @_;
	my $start = time;
	until ($code->())
	{
		last if time - $start >= $WAIT;
		sleep(0.5);
	}
	return time - $start;
}

# wait_same(PHASE): until the text COPY of every subscriber table equals the publisher's (or WAIT
# s); then check that comparison and compare the binary COPY as well
sub wait_same
{
	my ($phase) = @_;
	my $waited = wait_until(
		sub {
			for my $t (qw(docs notes))
			{
				my $want = digest($pub, 'postgres', $t, 'text');
				for my $db (@subs)
				{
					return 0 if digest($sub, $db, $t, 'text') ne $want;
				}
			}
			return 1;
		});
	note(sprintf('%s: compared after %.1f s of waiting', $phase, $waited));
	for my $t (qw(docs notes))
	{
		for my $format (qw(text binary))
		{
			my $want = digest($pub, 'postgres', $t, $format);
			for my $db (@subs)
			{
				my $got = digest($sub, $db, $t, $format);
				my $what =
				  $format eq 'text'
				  ? 'COPY text, ' . ($got =~ /^(\d+) / ? $1 : '?') . ' rows'
				  : 'COPY binary, ulid[] as 16-byte elements';
				ok($got ne '' && $got eq $want, "$phase: $db.$t identical to the publisher's ($what)")
				  or diag("$db.$t: [$got] vs the publisher's [$want]");
			}
		}
	}
	return;
}

note('initial table sync');
wait_same('initial sync');
# A table whose copy is done passes through 'syncdone' to 'ready' once the apply worker has caught
# up with it, which can come a moment after its rows are already all there: wait for it (WAIT s).
for my $db (@subs)
{
	my $notready;
	wait_until(
		sub {
			$notready = $sub->safe_psql($db,
				"SELECT count(*) FROM pg_subscription_rel WHERE srsubstate <> 'r'");
			return $notready == 0;
		});
	is($notready, 0, "initial sync: $db tables not in state ready");
}

note('inserts, updates and deletes by ulid key on the publisher');
my @keys = split /\n/,
  $pub->safe_psql('postgres', 'SELECT id FROM docs ORDER BY id OFFSET 100 LIMIT 12');
my @upd = @keys[ 0 .. 4 ];
my @del = @keys[ 5 .. 9 ];
my $moved = $keys[10];
my $range_lo = $keys[11];
my $range_hi = $pub->safe_psql('postgres', 'SELECT id FROM docs ORDER BY id OFFSET 400 LIMIT 1');
my $dml = rows_sql(1000, 'new');
$dml .=
  "; UPDATE docs SET body = body || ' (edited)', tags = tags || gen_ulid(), parent_id = '$moved' WHERE id = '$_'"
  for @upd;
$dml .= "; DELETE FROM docs WHERE id = '$_'" for @del;
must_run('publisher: 1000 inserts, 5 one-row updates and 5 one-row deletes by id',
	sub { $pub->safe_psql('postgres', $dml) });
my $new_id = $pub->safe_psql('postgres',
	"UPDATE docs SET id = gen_ulid() WHERE id = '$moved' RETURNING id");
like($new_id, qr/^[0-7][0-9A-Z]{25}$/,
	"publisher: an update of the key itself ($moved -> $new_id)");
must_run(
	'publisher: update 289 rows by key range, delete the 100 highest new keys, update and delete notes by ulid',
	sub {
		$pub->safe_psql(
			'postgres', "
			UPDATE docs SET tags = '{}', body = NULL WHERE id >= '$range_lo' AND id < '$range_hi';
			DELETE FROM docs WHERE id IN (SELECT id FROM docs WHERE body LIKE 'new %' ORDER BY id DESC LIMIT 100);
			UPDATE notes SET body = body || ' (edited)', refs = refs || gen_random_ulid()
			    WHERE ref IN (SELECT ref FROM notes ORDER BY ref LIMIT 20);
			DELETE FROM notes WHERE ref IN (SELECT ref FROM notes ORDER BY ref DESC LIMIT 20)");
	});
is($pub->safe_psql('postgres', 'SELECT count(*) FROM docs'),
	2000 + 1000 - 5 - 100, 'publisher: docs rows now');
wait_same('after DML');
my $in_list = sub { join ',', map { "'$_'" } @_ };
for my $db (@subs)
{
	is( $sub->safe_psql(
			$db, 'SELECT count(*) FROM docs WHERE id IN (' . $in_list->(@upd) . ")
			      AND body LIKE '% (edited)' AND parent_id = '$moved'"),
		5,
		"$db: updated rows carrying the edit (of 5)");
	is( $sub->safe_psql(
			$db, 'SELECT count(*) FROM docs WHERE id IN (' . $in_list->(@del) . ')'),
		0,
		"$db: deleted keys still present (of 5)");
	is( $sub->safe_psql(
			$db, "SELECT string_agg(id::text, ',') FROM docs WHERE id IN ('$moved', '$new_id')"),
		$new_id,
		"$db: the moved row is under its new key only");
	is($sub->safe_psql($db, "SELECT count(*) FROM notes WHERE body LIKE '% (edited)'"),
		20, "$db: notes carrying the edit");
	if ($pgnum >= 150000)
	{
		# (before 15 only the subscriber's log, checked below, tells)
		# every *error_count column (19 splits sync_error_count into tables' and sequences')
		is( $sub->safe_psql(
				$db, "SELECT sum(e.value::bigint) FROM pg_stat_subscription_stats s, jsonb_each_text(to_jsonb(s)) e
				      WHERE e.key LIKE '%error_count' AND s.subname = '$db'"),
			0,
			"$db: apply and sync errors (pg_stat_subscription_stats)");
	}
	my ($rc, $stdout, $stderr) =
	  $sub->psql($db, "SELECT bt_index_check('docs_pkey', true)");
	is($rc, 0, "$db: bt_index_check(docs_pkey, heapallindexed) passes")
	  or diag($stderr);
}
my @errors = grep { /\b(?:ERROR|FATAL):/ } split /\n/, slurp_file($sub->logfile);
is(scalar(@errors), 0, 'subscriber log has no ERROR or FATAL line')
  or diag(join("\n", @errors[ 0 .. ($#errors < 19 ? $#errors : 19) ]));

done_testing();
