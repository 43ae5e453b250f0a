# pg_upgrade across majors: 13 -> 17, 17 -> 18 and 13 -> 18, 14 -> 16 and 16 -> 18, each in copy and
# in --link mode, between the servers scripts/build/pg-build makes from pinned upstream sources
# (scripts/pins/pg-versions); and 18 -> 19 (copy and --link) between Debian's packages of both in the
# sid chroot (scripts/sid-chroot), in the pass of 19, which runs there.
#
# Runs once per CI run: in the pass of PostgreSQL 18 (the newest target; `scripts/test --pg all`
# runs it after every other pass on the host), and is skipped (plan skip_all, with the reason) in
# every other pass or when 13, 17 or 18 is not built; 14 -> 16 -> 18 runs when 14 and 16 are built
# too (they need ULID_PG_SRC_DIR; CI has them), else it says so. The servers are those of
# scripts/pins/pg-versions in ULID_PG_CACHE (default /var/cache/ulid-pg), each a node of its own install
# (PostgreSQL::Test::Cluster->new(..., install_path => ...)). This file runs as the user postgres
# and installs nothing: every server it uses must have this tree's extension installed (ulid.control,
# every ulid--*.sql this tree has or makes, byte for byte, and the library; one check per server,
# and the reason when not). scripts/test sees to it: each major's pass installs this tree into its
# own server, the pass of 18 waits for every other pass on the host, and in the sid chroot the pass
# of 19 installs it into Debian's 18 there too. Debian's 15 is no source (t/320_logical_upgrade.pl
# covers it, by logical replication): its server stores a pg_attver option on every column, which
# upstream pg_restore rejects (any table, ulid or not). 18's initdb enables data checksums by
# default; the 18 and 19 clusters are made with --no-data-checksums to match the older ones, as
# pg_upgrade requires.
#
# The old 13 (and 14) cluster, database app (ulid at the default version): accounts (ulid PK DEFAULT gen_ulid()),
# notes (a uuid foreign key to accounts, ON DELETE CASCADE, indexed with uuid_ulid_ops),
# events (ulid PK DEFAULT gen_ulid(), a foreign key to accounts, a hash index on ref, a minmax BRIN
# on id, a btree on account, ulid[] with NULL elements, 20,000 rows), shards (PARTITION BY HASH
# (id), 4 partitions, DEFAULT gen_random_ulid()); database legacy: ulid 0.1.0 (an older release)
# with a table and a BRIN index. Then, for each upgrade (copy and link):
#   - pg_upgrade succeeds; the extension keeps its version;
#   - every table's rows are identical (md5 of COPY ... (FORMAT binary) ordered by key, taken from
#     the old cluster right before the upgrade), in both databases;
#   - amcheck bt_index_check(heapallindexed) passes on every btree index (partitions included);
#   - lookups give the old cluster's answers and use the indexes the plan must use: 200 point
#     lookups through events_pkey, 200 through the hash index, a key range through events_pkey, a
#     time range through the BRIN index, the partitioned table pruned to one partition; every row
#     sits in the partition its hash selects (satisfies_hash_partition);
#   - defaults, the foreign key and the generators work (gen_ulid() above every carried-over id,
#     an orphan refused with 23503), in a transaction rolled back so the rows stay as they were;
#   - before the documented step the new major's extras are missing (minmax-multi/bloom coming from
#     13, skip support coming from 17 or 13); after it (ALTER EXTENSION ulid UPDATE, then UPDATE TO
#     '<default>+refresh' and UPDATE; docs/upgrading.md) both databases are at the
#     default version with exactly the catalog of a fresh install on the new major, minmax-multi and
#     bloom BRIN indexes build and answer (bitmap scans), and on 18 b-tree support function 6 is
#     ulid_skipsupport and the carried-over index on (5 adjacent ulid values, n) now skip-scans
#     with at most 7 index searches (more before the step, without skip support), answering as before.
# The 17 -> 18 upgrades start from the 17 clusters made by 13 -> 17 after their step, the 16 -> 18
# ones from the 16 clusters made by 14 -> 16. ULID_PG_UPGRADE_ANY_PASS=1 runs it in another pass on
# the host (the framework is then that major's). About 6 minutes on the host (ten upgrades), 1 in the
# chroot.

use strict;
use warnings;

use Digest::MD5 qw(md5_hex);
use File::Find;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;
use UlidServers;

my $started = time;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $this_version = pg_config_value('--version', $pg_config);
my ($this) = $this_version =~ /^PostgreSQL (\d+)/;
$this //= 'unknown';
my $in_chroot = ($ENV{ULID_IN_CHROOT} // '') eq '1';

my (%prefix, @majors, @missing_14_16);
if ($in_chroot)
{
	# the pass of 19, in the sid chroot (scripts/sid-chroot): Debian's 18 and 19 packages there
	%prefix = %{ chroot_servers($this, 'pg_upgrade') };
	@majors = (18, 19);
}
else
{
	my ($host, $missing) = host_servers();
	%prefix        = %$host;
	@missing_14_16 = @$missing;
	@majors        = sort { $a <=> $b } keys %prefix;
	plan skip_all =>
	  "runs once, in the PostgreSQL 18 pass (this pass: $this; ULID_PG_UPGRADE_ANY_PASS=1 runs it anyway)"
	  if $this ne '18' && ($ENV{ULID_PG_UPGRADE_ANY_PASS} // '') ne '1';
}
my %num = map { $_ => $_ * 10000 } @majors;    # server_version_num of each major's first release

# ---------------------------------------------------------------------------------------------
# this tree's extension files (ulid.control and every ulid--*.sql it has or makes), by name
my $work = PostgreSQL::Test::Utils::tempdir;
my %tree_file = extension_files($work);
my ($default) = $tree_file{'ulid.control'} =~ /^\s*default_version\s*=\s*'([^']+)'/m;
BAIL_OUT('ulid.control: no default_version') unless defined $default;

note "this tree's extension: ulid $default, "
  . scalar(keys %tree_file)
  . ' files (ulid.control and the ulid--*.sql scripts)';
check_installed(\%tree_file, \%prefix, $in_chroot);

my $STEP =
  "SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE; ALTER EXTENSION ulid UPDATE TO '$default+refresh'; ALTER EXTENSION ulid UPDATE;";
note "default version $default; the step after pg_upgrade: $STEP";
my $DESCRIBE_SQL = slurp_file('test/lib/ulid_describe.sql');

# ---------------------------------------------------------------------------------------------
# the old cluster's data
my $APP_SQL = <<'SQL';
SET client_min_messages = warning;
CREATE EXTENSION ulid;
CREATE TABLE accounts (id ulid PRIMARY KEY DEFAULT gen_ulid(), name text NOT NULL);
CREATE TABLE events (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    account ulid NOT NULL REFERENCES accounts (id),
    ref ulid NOT NULL DEFAULT gen_random_ulid(),
    tags ulid[],
    at timestamptz NOT NULL DEFAULT now(),
    n int NOT NULL
);
CREATE INDEX events_account ON events (account);
-- a uuid column referencing the ulid key (0.3.0), indexed in ulid's family
CREATE TABLE notes (id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                    account uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE);
CREATE INDEX notes_account ON notes (account uuid_ulid_ops);
CREATE INDEX events_ref_hash ON events USING hash (ref);
CREATE INDEX events_id_brin ON events USING brin (id) WITH (pages_per_range = 4);
CREATE TABLE shards (id ulid PRIMARY KEY DEFAULT gen_random_ulid(), v int NOT NULL) PARTITION BY HASH (id);
CREATE TABLE shards_0 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE shards_1 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE shards_2 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE shards_3 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 3);
-- only BRIN indexes: a range or lookup can only be answered by them (or a sequential scan)
CREATE TABLE timeline (id ulid NOT NULL DEFAULT gen_ulid(), ref ulid NOT NULL DEFAULT gen_random_ulid(), n int NOT NULL);
CREATE INDEX timeline_id_brin ON timeline USING brin (id) WITH (pages_per_range = 2);
-- 5 adjacent leading values (one random ulid, last byte 0..4): with skip support a skip scan steps
-- from one straight to the next, without it each step costs a probe for the next key (18)
CREATE TABLE buckets (bucket ulid NOT NULL, n int NOT NULL);
CREATE INDEX buckets_bucket_n ON buckets (bucket, n);

INSERT INTO accounts (name) SELECT 'account ' || g FROM generate_series(1, 100) g;
INSERT INTO events (account, tags, n)
SELECT (SELECT id FROM accounts ORDER BY id OFFSET (g % 100) LIMIT 1),
       CASE WHEN g % 3 = 0 THEN NULL ELSE ARRAY[gen_random_ulid(), NULL, gen_ulid()] END, g
FROM generate_series(1, 20000) g;
INSERT INTO shards (v) SELECT g FROM generate_series(1, 4000) g;
INSERT INTO timeline (n) SELECT g FROM generate_series(1, 20000) g;
INSERT INTO buckets SELECT b.id, g FROM generate_series(1, 2000) g,
    (SELECT overlay(r.id::bytea PLACING decode(lpad(to_hex(k), 2, '0'), 'hex') FROM 16 FOR 1)::ulid
     FROM (SELECT gen_random_ulid() AS id) r, generate_series(0, 4) k) b(id);
ANALYZE;
SQL
my $LEGACY_SQL = <<'SQL';
SET client_min_messages = warning;
CREATE EXTENSION ulid VERSION '0.1.0';
CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid NOT NULL DEFAULT gen_random_ulid());
CREATE INDEX items_id_brin ON items USING brin (id);
INSERT INTO items SELECT FROM generate_series(1, 2000);
SQL

# Answers that must not change: "<db> <what> <value>" lines (the same SQL on old and new).
my %TABLES = (
	app => [qw(accounts events shards timeline buckets)],
	legacy => ['items']);
my %PROBE = (
	app => "
WITH s AS MATERIALIZED (SELECT id FROM events WHERE n % 100 = 7)
SELECT 'lookup-pk', count(*), md5(string_agg(e.id::text || e.n, ',' ORDER BY e.id))
  FROM s CROSS JOIN LATERAL (SELECT * FROM events x WHERE x.id = s.id) e;
WITH s AS MATERIALIZED (SELECT ref FROM events WHERE n % 100 = 11)
SELECT 'lookup-hash', count(*), md5(string_agg(e.ref::text || e.n, ',' ORDER BY e.ref))
  FROM s CROSS JOIN LATERAL (SELECT * FROM events x WHERE x.ref = s.ref) e;
SELECT 'range-pk', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM events
 WHERE id >= (SELECT id FROM events WHERE n = 5000) AND id < (SELECT id FROM events WHERE n = 5400);
SELECT 'range-time', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM timeline
 WHERE id >= ulid_min(ulid_to_timestamp((SELECT id FROM timeline WHERE n = 9000)))
   AND id <= ulid_max(ulid_to_timestamp((SELECT id FROM timeline WHERE n = 9100)));
WITH s AS MATERIALIZED (SELECT ref FROM timeline WHERE n % 1000 = 3)
SELECT 'lookup-brin', count(*), md5(string_agg(t.id::text, ',' ORDER BY t.id))
  FROM s JOIN LATERAL (SELECT * FROM timeline x WHERE x.ref = s.ref) t ON true;
SELECT 'shard-lookup', count(*), sum(v) FROM shards WHERE id = (SELECT id FROM shards_2 ORDER BY id LIMIT 1);
SELECT 'per-account', count(DISTINCT account), md5(string_agg(account::text || ':' || c, ',' ORDER BY account))
  FROM (SELECT account, count(*) c FROM events GROUP BY account) a;
SELECT 'skip', count(*), sum(n) FROM buckets WHERE n = 77;",
	legacy => "
SELECT 'items', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM items WHERE id > '00000000000000000000000000';"
);

# The settings that leave the planner only the index access paths we mean.
my $FORCE =
  'SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_hashjoin = off; SET enable_mergejoin = off;';
my $SKIP_PROBE = 'SET enable_bitmapscan = off; SET enable_seqscan = off;
    EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*), sum(n) FROM buckets WHERE n = 77';

my (%node, %major_of);

# query(NAME, DB, SQL): psql's output (one session, every result: SQL may hold several statements); on
# an error, the error as a diagnostic and '' as the output, so the check that reads it fails
sub query
{
	my ($name, $db, $sql) = @_;
	my ($rc, $out, $err) = $node{$name}->psql($db, $sql);
	if ($rc != 0)
	{
		diag("$name/$db: query failed: $err");
		return '';
	}
	return $out;
}

# q_ok(NAME, DB, SQL): true when SQL ran without an error (the error as a diagnostic otherwise)
sub q_ok
{
	my ($name, $db, $sql) = @_;
	my ($rc, $out, $err) = $node{$name}->psql($db, $sql);
	diag("$name/$db: query failed: $err") if $rc != 0;
	return $rc == 0;
}

# new_node(NAME, MAJOR): a node of MAJOR's server, initdb'd (not started)
sub new_node
{
	my ($name, $major) = @_;
	$major_of{$name} = $major;
	$node{$name} =
	  PostgreSQL::Test::Cluster->new($name, install_path => $prefix{$major});
	my @extra = ('--locale=C.UTF-8', '--encoding=UTF8');
	# 18's initdb enables data checksums by default; pg_upgrade needs both sides to agree
	push @extra, '--no-data-checksums' if $num{$major} >= 180000;
	$node{$name}->init(extra => \@extra, force_initdb => 1);
	return $node{$name};
}

# fill_old(NAME, MAJOR): a node of MAJOR with both databases, stopped; true when it worked
sub fill_old
{
	my ($name, $major) = @_;
	new_node($name, $major);
	my $ok = $node{$name}->start(fail_ok => 1)
	  && q_ok($name, 'postgres', 'CREATE DATABASE app')
	  && q_ok($name, 'postgres', 'CREATE DATABASE legacy')
	  && q_ok($name, 'app', $APP_SQL)
	  && q_ok($name, 'legacy', $LEGACY_SQL);
	$node{$name}->stop;
	return $ok;
}

# snapshot(NAME): binary COPY checksums of every table and the probe answers (plans free), a line each
sub snapshot
{
	my ($c) = @_;
	my @lines;
	for my $db (qw(app legacy))
	{
		for my $t (@{ $TABLES{$db} })
		{
			my $rows = query($c, $db, "SELECT count(*) FROM $t");
			my ($rc, $bin, $err) = $node{$c}->psql($db,
				"COPY (SELECT * FROM $t ORDER BY 1, 2) TO STDOUT (FORMAT binary)");
			push @lines,
			  "$db $t rows=$rows binary-md5="
			  . ($rc == 0 ? md5_hex($bin) : "(COPY failed: $err)");
		}
		push @lines, map { "$db $_" } split /\n/, query($c, $db, $PROBE{$db});
	}
	for my $db (qw(app legacy))
	{
		push @lines, "$db extversion "
		  . query($c, $db, "SELECT extversion FROM pg_extension WHERE extname = 'ulid'");
	}
	push @lines, 'app shards-placement '
	  . query($c, 'app',
		"SELECT string_agg(tableoid::regclass::text || '=' || c, ' ' ORDER BY 1)
        FROM (SELECT tableoid, count(*) c FROM shards GROUP BY tableoid) s");
	return join("\n", @lines);
}

# the lines of TEXT matching RE, as a text
sub lines_like
{
	my ($text, $re) = @_;
	return join("\n", grep { /$re/ } split /\n/, $text);
}

# verify(NEW, FROM, LABEL, SNAPSHOT): the checks on the upgraded cluster NEW (started), whose old
# cluster was of major FROM and gave SNAPSHOT
sub verify
{
	my ($c, $from, $label, $snap) = @_;
	my $to = $major_of{$c};
	my ($n, $plan);
	note "-- checks on $label";
	note 'ulid versions carried over: '
	  . join(' ', map { /^(\S+) extversion (\S*)/ ? "$1 $2" : () } split /\n/, $snap);
	same_lines(snapshot($c), $snap,
		"$label: rows (binary COPY md5 of "
		  . scalar(() = $snap =~ /binary-md5/g)
		  . ' tables), lookups, partition placement and ulid versions identical to the old cluster\'s'
	);
	same_lines(
		join("\n", map { "app $_" } split /\n/, query($c, 'app', "$FORCE $PROBE{app}")),
		lines_like($snap, qr/^app (lookup-|range-|shard-lookup|per-account|skip)/),
		"$label: the same answers with only index scans allowed");
	# (the sample is a materialized CTE: 18 would remove a self-join of events on its key)
	$plan = query($c, 'app',
		"$FORCE EXPLAIN (COSTS OFF) WITH s AS MATERIALIZED (SELECT id FROM events WHERE n % 100 = 7)
                        SELECT * FROM s CROSS JOIN LATERAL (SELECT * FROM events x WHERE x.id = s.id) e");
	like($plan, qr/\QIndex Scan using events_pkey\E/,
		"$label: point lookups use events_pkey");
	$plan = query($c, 'app',
		"$FORCE EXPLAIN (COSTS OFF) WITH s AS MATERIALIZED (SELECT ref FROM events WHERE n % 100 = 11)
                        SELECT * FROM s CROSS JOIN LATERAL (SELECT * FROM events x WHERE x.ref = s.ref) e");
	like($plan, qr/\QIndex Scan using events_ref_hash\E/,
		"$label: hash lookups use events_ref_hash");
	$plan = query($c, 'app',
		"SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT count(*) FROM timeline WHERE id >= ulid_min('2000-01-01') AND id <= ulid_max('2000-01-02')"
	);
	like($plan, qr/Bitmap Index Scan on timeline_id_(brin|multi)/,
		"$label: a time range uses the BRIN index");
	$plan = query($c, 'app',
		"EXPLAIN (COSTS OFF) SELECT * FROM shards WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'");
	is(scalar(grep { /shards_/ } split /\n/, $plan),
		1, "$label: a key lookup on shards is pruned to one partition")
	  or diag($plan);
	cmp_num(
		query(
			$c, 'app',
			"SELECT count(*) FROM shards s JOIN pg_inherits i ON i.inhrelid = s.tableoid
                     JOIN LATERAL (SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'remainder (\\d+)'))[1]::int r
                                   FROM pg_class c WHERE c.oid = s.tableoid) p ON true
                     WHERE NOT satisfies_hash_partition('shards'::regclass, 4, p.r, s.id)"
		),
		'==', 0,
		"$label: rows outside the partition their hash selects");
	query($c, 'app',
		'SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS amcheck');
	my ($count, $bad_idx) = (0, 0);
	for my $idx (
		split /\n/,
		query(
			$c, 'app',
			"SELECT c.oid::regclass FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                             JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND c.relkind = 'i'
                             AND c.relnamespace = 'public'::regnamespace"
		))
	{
		$count++;
		my ($rc, $out, $err) =
		  $node{$c}->psql('app', "SELECT bt_index_check('$idx'::regclass, true)");
		next if $rc == 0;
		$bad_idx++;
		diag("bt_index_check($idx): " . (split /\n/, $err)[0]);
	}
	cmp_num($count, '>=', 8,
		"$label: btree indexes checked by bt_index_check(heapallindexed) (failures below)");
	cmp_num($bad_idx, '==', 0, "$label: bt_index_check failures");
	# defaults, generators and the foreign key, rolled back
	is( query(
			$c, 'app', "BEGIN;
        INSERT INTO accounts (name) VALUES ('new');
        INSERT INTO events (account, n) SELECT id, -1 FROM accounts WHERE name = 'new';
        INSERT INTO shards (v) VALUES (-1);
        SELECT (SELECT id FROM events WHERE n = -1) > (SELECT max(id) FROM events WHERE n > 0)
           AND (SELECT ulid_to_timestamp(id) FROM events WHERE n = -1) BETWEEN now() - interval '1 minute' AND clock_timestamp()
           AND (SELECT count(*) FROM shards WHERE v = -1) = 1
           AND gen_ulid() > (SELECT id FROM events WHERE n = -1);
        ROLLBACK;"
		),
		't',
		"$label: DEFAULT gen_ulid() above every carried-over id, gen_random_ulid() default routed to a partition"
	);
	my (undef, undef, $err) = $node{$c}->psql('app',
		"\\set VERBOSITY verbose\nINSERT INTO events (account, n) VALUES (gen_ulid(), -2)");
	like($err, qr/ERROR:  23503/, "$label: the foreign key refuses an orphan");
	(undef, undef, $err) = $node{$c}->psql('app',
		"\\set VERBOSITY verbose\nINSERT INTO notes (account) VALUES (gen_random_uuid())");
	like($err, qr/ERROR:  23503/,
		"$label: the uuid -> ulid foreign key refuses an orphan");
	is( query(
			$c, 'app',
			"BEGIN; INSERT INTO accounts (name) SELECT 'noted' FROM generate_series(1, 3);
                     INSERT INTO notes (account) SELECT id FROM accounts WHERE name = 'noted';
                     DELETE FROM accounts WHERE name = 'noted';
                     SELECT count(*) FROM notes; ROLLBACK;"
		),
		'0',
		"$label: ... takes uuid values of the ulid keys and cascades the deletes");
	is( query(
			$c, 'legacy',
			"BEGIN; CREATE TEMP TABLE top AS SELECT max(id) AS id FROM items;
                        INSERT INTO items DEFAULT VALUES; SELECT count(*) FROM items WHERE id > (SELECT id FROM top); ROLLBACK;"
		),
		'1',
		"$label: legacy: DEFAULT gen_ulid() works, above every carried-over id");

	# what the new major adds, before and after the step
	my $want_multi = $num{$from} < 140000 && $num{$to} >= 140000;
	my $want_skip = $num{$from} < 180000 && $num{$to} >= 180000;
	my $searches_before;
	if ($want_skip)
	{
		# the index searches of a skip scan over the carried-over index, without skip support
		($searches_before) =
		  query($c, 'app', $SKIP_PROBE) =~ /^\s*Index Searches: (\d+)/m;
	}
	my %pre;
	for my $db (qw(app legacy))
	{
		if ($want_multi)
		{
			cmp_num(
				query(
					$c, $db,
					"SELECT count(*) FROM pg_opclass WHERE opcname IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops')"
				),
				'==', 0,
				"$label: $db before the step: minmax-multi/bloom classes (13 had none)");
		}
		if ($want_skip)
		{
			cmp_num(
				query(
					$c, $db,
					"SELECT count(*) FROM pg_proc WHERE proname = 'ulid_skipsupport'"),
				'==', 0,
				"$label: $db before the step: skip support function ($from had none)");
		}
		$pre{$db} = query($c, $db, $DESCRIBE_SQL);
		my ($rc, $out, $err) = $node{$c}->psql($db, $STEP);
		ok($rc == 0, "$label: $db: the step after pg_upgrade ran")
		  or diag((split /\n/, $err)[0] // '');
		is(query($c, $db, "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"),
			$default, "$label: $db at $default after the step");
	}
	like(
		query(
			$c, 'app',
			"SELECT count(*) FILTER (WHERE NOT amvalidate(c.oid)) || '/' || count(*) FROM pg_opclass c
                     JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass AND d.objid = c.oid AND d.deptype = 'e'"
		),
		qr{^0/[0-9]+$},
		"$label: app: amvalidate() of every operator class of the extension after the step (invalid/all)"
	);
	query($c, 'postgres', 'CREATE DATABASE fresh');
	query($c, 'fresh', 'CREATE EXTENSION ulid');
	my $fresh = query($c, 'fresh', $DESCRIBE_SQL);
	my $amprocs = scalar(grep { /^amproc/ } split /\n/, $fresh);
	for my $db (qw(app legacy))
	{
		same_lines(query($c, $db, $DESCRIBE_SQL),
			$fresh,
			"$label: $db: the extension's catalog is a fresh $to install's ($amprocs amproc entries)",
			20);
	}
	if ($num{$from} >= 180000)
	{
		# 19 adds nothing the extension uses: the step changes no catalog row
		same_lines($pre{app}, $fresh,
			"$label: app: before the step the catalog was already a fresh $to install's (the refresh round trip is a no-op)",
			20);
	}
	query($c, 'postgres', 'DROP DATABASE fresh');
	if ($num{$to} >= 140000)
	{
		# (kept: a 17 cluster carries them on to 18)
		ok( q_ok(
				$c, 'app',
				'CREATE INDEX IF NOT EXISTS timeline_ref_bloom ON timeline USING brin (ref ulid_bloom_ops);
                    CREATE INDEX IF NOT EXISTS timeline_id_multi ON timeline USING brin (id ulid_minmax_multi_ops)'
			),
			"$label: bloom and minmax-multi BRIN indexes on timeline built");
		like(
			query(
				$c, 'app',
				"SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM timeline WHERE ref = '01ARZ3NDEKTSV4RRFFQ69G5FAV'"
			),
			qr/\QBitmap Index Scan on timeline_ref_bloom\E/,
			"$label: a ref lookup uses the bloom index");
		is( lines_like(
				join("\n",
					map { "app $_" } split /\n/,
					query($c, 'app', "SET enable_seqscan = off; $PROBE{app}")),
				qr/^app (lookup-brin|range-time)/),
			lines_like($snap, qr/^app (lookup-brin|range-time)/),
			"$label: ... BRIN lookups and ranges with minmax-multi and bloom answer as before");
		like(
			query(
				$c, 'app',
				"BEGIN; DROP INDEX timeline_id_brin; SET LOCAL enable_seqscan = off;
                         EXPLAIN (COSTS OFF) SELECT * FROM timeline WHERE id < ulid_min('2000-01-01'); ROLLBACK;"
			),
			qr/\QBitmap Index Scan on timeline_id_multi\E/,
			"$label: ... a range uses the minmax-multi index");
	}
	if ($num{$to} >= 180000)
	{
		is( query(
				$c, 'app',
				"SELECT amproc::regproc FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
                         JOIN pg_am a ON a.oid = f.opfmethod WHERE a.amname = 'btree' AND f.opfname = 'ulid_ops' AND p.amprocnum = 6
                         AND p.amproclefttype = 'ulid'::regtype"
			),
			'ulid_skipsupport',
			"$label: btree support function 6 of ulid_ops for ulid");
		$plan = query($c, 'app', $SKIP_PROBE);
		like(
			$plan,
			qr/Index (Only )?Scan using buckets_bucket_n/,
			"$label: a query on n alone scans buckets_bucket_n (skip scan)");
		my ($searches) = $plan =~ /^\s*Index Searches: (\d+)/m;
		cmp_num($searches // 99, '<=', 7,
			"$label: ... the carried-over index now uses skip support: index searches (5 adjacent values + 2 at most)"
		) or diag($plan);
		if (defined $searches_before)
		{
			cmp_num($searches_before, '>', $searches // 99,
				"$label: ... before the step, without skip support, it took more ("
				  . ($searches // '?')
				  . ' now)');
		}
		is( join("\n",
				map { "app $_" } split /\n/,
				query(
					$c, 'app',
					"SET enable_bitmapscan = off; SET enable_seqscan = off; SELECT 'skip', count(*), sum(n) FROM buckets WHERE n = 77"
				)),
			lines_like($snap, qr/^app skip/),
			"$label: ... and answers as on the old cluster");
	}
	return;
}

# upgrade(OLD, NEW, MODE): pg_upgrade the stopped node OLD into the fresh node NEW (--link or copy,
# pg_upgrade's default: --copy is spelled out only from 16), then start NEW; true when it worked
sub upgrade
{
	my ($old, $new, $mode) = @_;
	my $t0 = time;
	my ($from, $to) = ($major_of{$old}, $major_of{$new});
	my $run = PostgreSQL::Test::Utils::tempdir;    # pg_upgrade writes its scripts to its cwd
	my @cmd = (
		"$prefix{$to}/bin/pg_upgrade", ($mode eq 'link' ? ('--link') : ()),
		'-b', "$prefix{$from}/bin",
		'-B', "$prefix{$to}/bin",
		'-d', $node{$old}->data_dir,
		'-D', $node{$new}->data_dir,
		'-p', $node{$old}->port,
		'-P', $node{$new}->port,
		'-s', $node{$new}->host,
		'--no-sync');
	my $out = '';
	IPC::Run::run(\@cmd, '<', \undef, '>&', \$out,
		init => sub { chdir $run or die "chdir $run: $!" });
	my $rc = $? >> 8;
	if ($rc != 0)
	{
		fail("pg_upgrade --$mode $from -> $to (exit $rc)");
		my @lines = split /\n/, $out;
		diag(join("\n", @lines[ ($#lines > 24 ? $#lines - 24 : 0) .. $#lines ]));
		find(
			sub {
				return unless /\.log$/ && $File::Find::dir =~ /pg_upgrade_output\.d/;
				my @l = split /\n/, slurp_file($_);
				diag("$File::Find::name:\n"
					  . join("\n", @l[ ($#l > 14 ? $#l - 14 : 0) .. $#l ]));
			},
			$node{$new}->data_dir);
		return 0;
	}
	pass("pg_upgrade --$mode $from -> $to (" . (time - $t0) . ' s)');
	$node{$new}->start;
	return 1;
}

# one_upgrade(OLD, NEW, MAJOR, MODE): snapshot OLD (started), stop it, upgrade into NEW (a fresh
# node of MAJOR), verify, stop NEW
sub one_upgrade
{
	my ($old, $new, $to, $mode) = @_;
	new_node($new, $to);
	my $from = $major_of{$old};
	note "==== $from -> $to, --$mode ====";
	$node{$old}->start;
	my $snap = snapshot($old);
	$node{$old}->stop;
	upgrade($old, $new, $mode) or return;
	verify($new, $from, "$from->$to $mode", $snap);
	$node{$new}->stop;
	return;
}

if ($in_chroot)
{
	note "old cluster (18, Debian's package in the sid chroot): database app (ulid $default) and legacy (ulid 0.1.0)";
	must(fill_old('old18a', 18), '18 cluster filled');
	one_upgrade('old18a', 'new19c', 19, 'copy');
	one_upgrade('old18a', 'new19l', 19, 'link');    # (the last use of old18a)
	note 'pg_upgrade took ' . (time - $started) . ' s';
	done_testing();
	exit 0;
}

note "old clusters (13): database app (ulid $default) and legacy (ulid 0.1.0)";
must(fill_old('old13a', 13), '13 cluster filled');
must(fill_old('old13b', 13),
	'second 13 cluster filled (for the --link upgrade to 18)');
$node{old13a}->start;
note '13: app has '
  . query('old13a', 'app', 'SELECT count(*) FROM events')
  . ' events, '
  . query('old13a', 'app', 'SELECT count(*) FROM shards')
  . ' shard rows; '
  . query('old13a', 'app', 'SELECT version()');
$node{old13a}->stop;

one_upgrade('old13a', 'new17c', 17, 'copy');
one_upgrade('old13a', 'new18c', 18, 'copy');    # (copy mode leaves the old cluster as it was)
one_upgrade('old13a', 'new17l', 17, 'link');    # (the last use of old13a: --link gives its files to new17l)
one_upgrade('old13b', 'new18l', 18, 'link');
one_upgrade('new17c', 'new18cc', 18, 'copy');
one_upgrade('new17l', 'new18ll', 18, 'link');

if (@missing_14_16)
{
	note '14 -> 16 -> 18 not run: ' . join('; ', @missing_14_16);
}
else
{
	note "old cluster (14): database app (ulid $default) and legacy (ulid 0.1.0)";
	must(fill_old('old14a', 14), '14 cluster filled');
	one_upgrade('old14a', 'new16c', 16, 'copy');
	one_upgrade('old14a', 'new16l', 16, 'link');    # (the last use of old14a)
	one_upgrade('new16c', 'new18c16', 18, 'copy');
	one_upgrade('new16l', 'new18l16', 18, 'link');
}

note 'pg_upgrade took ' . (time - $started) . ' s';
done_testing();
