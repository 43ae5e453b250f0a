# pg_partman 5 and ULIDs: Debian trixie's pg-partman 5.2.4 (built by scripts/build/partman-build against
# the server under test and installed into it by scripts/test, before the TAP suites of its pass),
# on a server of its own (its database in UTC).
#
#   - a native ulid control column: what create_parent says (it takes integer, numeric,
#     date/timestamp, text and uuid columns only);
#   - test/suites/recipes/partman_uuid_monthly.sql (docs/time-and-partitioning.md quotes it): ULIDs
#     in a uuid key, monthly partitions made by create_parent with pg_partman's uuid7_time_encoder
#     and uuid7_time_decoder; the partitions and their bounds (ulid_min() of each month start, as
#     uuid);
#   - rows routed right: the first and last millisecond of a month (ulid_min/ulid_max and gen_ulid
#     of those instants), DEFAULT gen_ulid()::uuid rows, backfilled rows of other months; a row
#     outside every month in the DEFAULT partition (partman.check_default); pruning by
#     ulid_min(...)::uuid;
#   - the encoder and decoder against ulid_min() and ulid_to_timestamp() (the encoder rounds a
#     sub-millisecond time to the nearest millisecond, ulid_min truncates: no month bound has one);
#   - run_maintenance(): more months ahead after premake is raised; retention drops the months that
#     ended before it, with their rows, and keeps the rest.
# The whole file is skipped (plan skip_all, with the reason) on a major pg_partman 5 does not
# support (before 14), where pg_partman is not installed for the server, and where the one
# installed is not pg_partman 5 (Debian's packaged 15 gets Debian's pg_partman 4.7, which
# t/100_partitioning.pl shows refusing both column types). scripts/test installs pg_partman 5 into
# the source-built servers of 14 and later and into Debian's 19 in the sid chroot, the chroot's own.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started   = time;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $version   = '5.2.4';       # scripts/build/partman-build's PARTMAN_VERSION

my $pg_version = pg_config_value('--version', $pg_config);
my $sharedir   = pg_config_value('--sharedir', $pg_config);
my ($major) = $pg_version =~ /^PostgreSQL (\d+)/;
my $control = "$sharedir/extension/pg_partman.control";
note "$pg_version, $sharedir";
if ($major < 14)
{
	plan skip_all =>
	  "pg_partman 5 needs PostgreSQL 14 or later (its Makefile refuses $major)";
}
my $installed;
if (open my $fh, '<', $control)
{
	while (<$fh>)
	{
		$installed = $1 if /^\s*default_version\s*=\s*'([^']*)'/;
	}
	close $fh;
}
if (!defined $installed)
{
	plan skip_all => "pg_partman is not installed for $pg_version (no $control): "
	  . 'scripts/test installs pg_partman 5 (scripts/build/partman-build --install PG_CONFIG) '
	  . 'into the source-built servers of 14 and later and into Debian\'s 19 in the sid chroot';
}
if ($installed !~ /^5\./)
{
	plan skip_all => "the pg_partman installed for $pg_version is $installed, not 5 "
	  . '(Debian\'s package for its packaged server, 4.7 on Debian 12, see t/100_partitioning.pl); '
	  . 'pg_partman 5 is built for the source-built servers only, not installed over a Debian package';
}

my $node = PostgreSQL::Test::Cluster->new('partman');
$node->init;
$node->start;

# sq(SQL): the output of SQL on the suite's server (node_query); sq_ok(SQL): true when it ran
sub sq    { return node_query($node, $_[0]); }
sub sq_ok { return node_sql_ok($node, $_[0]); }

# month(OFFSET): YYYYMM01 of the UTC month OFFSET months from now (pg_partman's partition suffix)
sub month
{
	return sq("SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '$_[0] months', 'YYYYMMDD')");
}

# start(OFFSET): that month's first instant, as a timestamptz literal
sub start
{
	return sq("SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '$_[0] months', 'YYYY-MM-DD') || ' 00:00:00+00'");
}

# partitions(): the partitions of events, by name, space-separated
sub partitions
{
	return sq(
		"SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'events'::regclass");
}

# months(FROM, TO): "events_default events_p<FROM> ... events_p<TO>"
sub months
{
	my ($from, $to) = @_;
	return join ' ', 'events_default', map { 'events_p' . month($_) } $from .. $to;
}

# pg_partman 5.2.4 for this server: installed by scripts/test (scripts/build/partman-build --install)
is($installed, $version,
	"pg_partman $version is installed for this server (scripts/build/partman-build; $control)");
must(
	sq_ok("ALTER DATABASE postgres SET timezone = 'UTC'"),
	'the database of its own server in UTC (ALTER DATABASE postgres SET timezone)');
must(sq_ok('CREATE EXTENSION ulid'), 'CREATE EXTENSION ulid');

# a native ulid control column
must(sq_ok('CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman'),
	'CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman');
is(sq("SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'"),
	$version, "pg_partman's version");
must(
	sq_ok(
		'CREATE TABLE events_ulid (id ulid NOT NULL DEFAULT gen_ulid()) PARTITION BY RANGE (id)'),
	'events_ulid (id ulid) PARTITION BY RANGE (id)');
{
	my ($rc, $out, $err) = $node->psql('postgres',
		"SELECT partman.create_parent('public.events_ulid', 'id', '1 month', p_time_encoder => 'partman.uuid7_time_encoder',
		                               p_time_decoder => 'partman.uuid7_time_decoder')");
	my $want =
	  'ERROR:  pg_partman only supports partitioning of data types that are integer, numeric, '
	  . 'date/timestamp or specially encoded text. Supplied column is of type ulid';
	ok($rc != 0 && index($err, $want) >= 0,
		'create_parent on a ulid column is refused, encoder and decoder given or not')
	  or diag("exit $rc, [$want] not found in: $err");
}
cmp_num(sq("SELECT count(*) FROM pg_inherits WHERE inhparent = 'events_ulid'::regclass"),
	'==', 0, 'nothing was partitioned');

# test/suites/recipes/partman_uuid_monthly.sql: ULIDs in a uuid key
{
	my ($rc, $out, $err) =
	  $node->psql('postgres', '', extra_params => [ '-f', 'test/suites/recipes/partman_uuid_monthly.sql' ]);
	diag("the recipe: $err") if $rc != 0;
	must($rc == 0, 'the recipe runs');
}
is(partitions(), months(-3, 3),
	'partitions: DEFAULT, 3 months back, this month, 3 ahead');
my $m0 = month(0);
my ($s0, $s1) = (start(0), start(1));
is( sq("SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE relname = 'events_p$m0'"),
	sq("SELECT format('FOR VALUES FROM (%L) TO (%L)', ulid_min('$s0')::uuid, ulid_min('$s1')::uuid)"),
	"events_p$m0 is bounded by ulid_min() of this month's and next month's first instants, as uuid");
cmp_num(
	sq(
		"SELECT count(*) FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid, generate_series(-3, 3) k,
		 LATERAL (SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => k)) AT TIME ZONE 'UTC' AS s) m
		 WHERE i.inhparent = 'events'::regclass AND c.relname = 'events_p' || to_char(m.s AT TIME ZONE 'UTC', 'YYYYMMDD')
		   AND pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES FROM (%L) TO (%L)', ulid_min(m.s)::uuid,
		                                                   ulid_min(m.s + interval '1 month')::uuid)"),
	'==', 7,
	"every month's bounds are ulid_min() of its first instant and the next month's (of 7)");
is( sq(
		"SELECT control || ' ' || partition_interval || ' ' || time_encoder || ' ' || time_decoder || ' ' || premake || ' ' || retention
		 FROM partman.part_config WHERE parent_table = 'public.events'"),
	'id 1 mon partman.uuid7_time_encoder partman.uuid7_time_decoder 3 12 months',
	"pg_partman's configuration: the encoder and decoder, retention 12 months");

# rows land in the partition of their month
must(
	sq_ok(
		"INSERT INTO events (id, kind) VALUES
		     (ulid_min('$s0')::uuid, 'first ms, ulid_min'), (gen_ulid('$s0')::uuid, 'first ms, gen_ulid'),
		     (ulid_max(timestamptz '$s1' - interval '1 millisecond')::uuid, 'last ms, ulid_max'),
		     (gen_ulid(timestamptz '$s1' - interval '1 millisecond')::uuid, 'last ms, gen_ulid'),
		     (ulid_max(timestamptz '$s0' - interval '1 millisecond')::uuid, 'month before'),
		     (ulid_min('$s1')::uuid, 'month after')"),
	'rows in the first and last millisecond of this month, and either side of them');
is( sq("SELECT string_agg(kind || ': ' || tableoid::regclass, ', ' ORDER BY id) FROM events"),
	'month before: events_p'
	  . month(-1)
	  . ", first ms, ulid_min: events_p$m0, first ms, gen_ulid: events_p$m0, last ms, gen_ulid: events_p$m0, "
	  . "last ms, ulid_max: events_p$m0, month after: events_p"
	  . month(1),
	"first and last millisecond in events_p$m0, the instants either side in the months beside it");
my $s_3 = start(-3);
must(
	sq_ok(
		"INSERT INTO events (kind) SELECT 'live' FROM generate_series(1, 1000);
		 INSERT INTO events (id, kind)
		 SELECT gen_ulid(s + (now() - s) * random())::uuid, 'backfill'
		 FROM (SELECT timestamptz '$s_3' AS s) b, generate_series(1, 3000)"),
	'1,000 rows with DEFAULT gen_ulid()::uuid and 3,000 backfilled over the 3 months back');
cmp_num(
	sq(
		"SELECT count(*) FROM events WHERE tableoid::regclass::text <>
		 'events_p' || to_char(ulid_to_timestamp(id::ulid) AT TIME ZONE 'UTC', 'YYYYMM') || '01'"),
	'==', 0,
	'rows outside the partition of their UTC month, by ulid_to_timestamp(id::ulid) (of 4,006)');
cmp_num(sq('SELECT count(DISTINCT tableoid) FROM events'),
	'==', 5, 'months holding rows (3 back, this month, next month)');
is( sq(
		"SELECT count(*) FILTER (WHERE id::ulid::uuid = id) || ' ' || bool_and(o1 = o2) FROM (
		 SELECT id, row_number() OVER (ORDER BY id) o1, row_number() OVER (ORDER BY id::ulid) o2 FROM events) s"),
	'4006 true',
	'a uuid key reads back as the same ULID: id::ulid, and uuid order = ulid order');
must(
	sq_ok(
		"INSERT INTO events (id, kind) VALUES (gen_ulid('2001-01-01 00:00:00+00')::uuid, 'stray')"),
	'a row from 2001 (no month for it)');
is( sq(
		"SELECT (SELECT tableoid::regclass::text FROM events WHERE kind = 'stray') || ' ' ||
		        (SELECT string_agg(default_table || ' ' || count, ', ') FROM partman.check_default(p_exact_count => true))"),
	'events_default public.events_default 1',
	'it is in events_default, which partman.check_default() reports');
must(sq_ok("DELETE FROM events WHERE kind = 'stray'"), 'delete it');
{
	my $plan = sq(
		"EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id >= ulid_min('$s0')::uuid AND id < ulid_min('$s1')::uuid");
	my %scanned = map { $_ => 1 } $plan =~ /on (events_[a-z0-9]+)/g;
	is(join(' ', sort keys %scanned), "events_p$m0",
		"a time range on the key, ulid_min(...)::uuid bounds: only events_p$m0 is scanned (pruned when planning)"
	) or diag($plan);
}

# pg_partman's uuid7 encoder and decoder on ULIDs
is( sq(
		"SELECT count(*) FILTER (WHERE partman.uuid7_time_encoder(s) = ulid_min(s)::uuid) FROM (
		 SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => k)) AT TIME ZONE 'UTC' s
		 FROM generate_series(-600, 600) k) m"),
	'1201',
	'uuid7_time_encoder(month start) = ulid_min(month start)::uuid, for every month here');
is( sq(
		"SELECT count(*) FILTER (WHERE partman.uuid7_time_decoder(id::text) = ulid_to_timestamp(id::ulid)) FROM events"),
	'4006',
	'uuid7_time_decoder(id::text) = ulid_to_timestamp(id::ulid) for every row');
is( sq(
		"SELECT partman.uuid7_time_encoder(t) = ulid_min(t + interval '1 millisecond')::uuid, ulid_min(t)::uuid = ulid_min(date_trunc('milliseconds', t))::uuid
		 FROM (SELECT timestamptz '$s0' + interval '0.6 milliseconds' t) s") =~ tr/|/ /r,
	't t',
	'sub-millisecond: the encoder rounds to the nearest millisecond, ulid_min truncates');

# run_maintenance()
must(
	sq_ok(
		"UPDATE partman.part_config SET premake = 6 WHERE parent_table = 'public.events'; SELECT partman.run_maintenance('public.events')"),
	"premake 6, then partman.run_maintenance('public.events')");
is(partitions(), months(-3, 7),
	"partitions: 6 months ahead of the newest row's month (next month's; infinite_time_partitions is off)");
my $s_2  = start(-2);
my $keep = sq("SELECT count(*) FROM events WHERE id >= ulid_min('$s_2')::uuid");
must(
	sq_ok(
		"UPDATE partman.part_config SET retention = '2 months' WHERE parent_table = 'public.events'; SELECT partman.run_maintenance('public.events')"),
	"retention 2 months, then partman.run_maintenance('public.events')");
is(partitions(), months(-2, 7),
	'partitions: the month that ended more than 2 months ago is dropped');
cmp_num(sq("SELECT count(*) FROM pg_class WHERE relname = 'events_p" . month(-3) . "'"),
	'==', 0, 'its table is gone (retention_keep_table = false)');
is( sq(
		"SELECT count(*) || ' ' || count(*) FILTER (WHERE id < ulid_min('$s_2')::uuid) FROM events"),
	"$keep 0",
	'rows of the kept months unchanged, none older left');
cmp_num(
	sq(
		"INSERT INTO events (kind) VALUES ('after') RETURNING (tableoid::regclass::text IN ('events_p$m0', 'events_p"
		  . month(1) . "'))::int"),
	'==', 1,
	"DEFAULT gen_ulid()::uuid after maintenance lands in events_p$m0 or the month after (if it turned meanwhile)"
);

note 'partman took ' . (time - $started) . ' s';
$node->stop;

done_testing();
