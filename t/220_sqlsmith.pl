# SQL-level fuzzing with SQLsmith (Debian's sqlsmith package): random, type-correct queries built
# from the catalog, so every ulid function, operator, cast and aggregate is called with odd
# arguments, inside joins, subqueries, CASE, window functions and DML.
#
# A server of its own (locale C.UTF-8, encoding UTF8), so that its server log can be read: every
# line carries the user and the SQLSTATE, errors carry their source location (log_error_verbosity =
# verbose), and a crashed backend's query is logged whole (track_activity_query_size); statements
# are not logged (log_statement = none; the framework's all would fill the log). Fixture, in a
# database smith: the extension; table smith_ulid (ulid primary key, nullable ulid, uuid, ulid[]
# with NULL elements, timestamptz, text and bytea holding valid and invalid ULID texts and
# 0/2/15/16/17-byte values, NULLs and the extremes 00000000000000000000000000 /
# 7ZZZZZZZZZZZZZZZZZZZZZZZZZ, timestamps at the ends of the ULID range, outside it and infinite), an
# index for every operator class of the extension on this major on every column of its input type,
# read from the catalog (btree, hash, BRIN minmax, and minmax-multi and bloom on 14+ on the two ulid
# columns; 0.3.0's cross-type uuid_ulid_ops on the uuid column; whatever later releases add is
# picked up without changing this file, and a class with no column of its type fails a check), a
# GIN index on the ulid[] column, extended statistics; smith_uuid (uuid key, ulid foreign key,
# ulid[]); smith_range (PARTITION BY RANGE on a ulid, with a DEFAULT partition) and smith_hash
# (PARTITION BY HASH on a ulid); ANALYZE.
#
# sqlsmith runs as ulid_smith, a role without superuser (a superuser's sqlsmith calls
# pg_terminate_backend and the like) that may SELECT, INSERT, UPDATE and DELETE the fixture
# (sqlsmith runs each statement in a transaction it rolls back), over the server's Unix socket. One
# run per seed: a fixed seed and a random one by default, both printed, each bounded by time (and
# optionally by a query count).
#
# Checks per run: sqlsmith ran and reported its query count; no crash in the server log — a backend
# or worker ended by a signal or an abnormal exit code, an assertion failure (TRAP), a PANIC, or
# the postmaster's crash recovery; no WARNING of a resource leak or of damaged memory (the
# memory-context checks of an assertion-enabled build); no internal error (SQLSTATE class XX)
# raised by the extension's own code (its LOCATION is one of src/pg/*.cpp, src/core/*.cpp), which
# must give every bad input a clear error with the right SQLSTATE. At the end: the runs called
# ulid functions (pg_stat_user_functions, track_functions = all), the server still answers, and
# bt_index_check(heapallindexed) passes on every btree index of the fixture (the fuzzed DML was
# rolled back; the indexes must still agree with the heaps). Prints (as notes) per run and in total:
# queries, statements ending in errors by SQLSTATE class (and those the extension raised), crashes,
# seconds, calls of ulid functions and how many of them were called.
#
# Environment:
#   ULID_SQLSMITH_SECONDS  time for all runs together, split evenly between the seeds (default 30;
#                          0 = no time bound, then ULID_SQLSMITH_QUERIES must be set)
#   ULID_SQLSMITH_SEEDS    seeds, one run each; "random" is replaced by a random seed (default
#                          "1601 random")
#   ULID_SQLSMITH_QUERIES  query budget per run (sqlsmith --max-queries; default none)
#   ULID_SQLSMITH_CATALOG  1 = let sqlsmith also read pg_catalog/information_schema relations (by
#                          default it runs with --exclude-catalog: more queries reach the fixture)
#   ULID_SQLSMITH_STATEMENTS  0 = don't log the statements of errors (long runs: a smaller log)
#   ULID_SQLSMITH_SELFTEST_SIGNAL  a check of the check: send this signal (e.g. SEGV, ABRT) to one
#                          fuzzing backend in the first run; the suite must then report the crash
#                          and fail
#   ULID_SQLSMITH_KEEP     a directory to copy the server log and sqlsmith's output into (writable
#                          by the user the test runs as)
#
# By hand, as a user other than root in a tree that user can write, after `make install` against
# the major (the check of the check fails 1 check):
#   ULID_SQLSMITH_SELFTEST_SIGNAL=SEGV make installcheck REGRESS= PROVE_TESTS=t/220_sqlsmith.pl
# scripts/sqlsmith-long runs it on an assertion-enabled build with a query budget.

use strict;
use warnings;

use File::Basename qw(basename);
use File::Copy qw(copy);
use File::Find;
use File::Path qw(make_path);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started   = time;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $work      = PostgreSQL::Test::Utils::tempdir;

# knob(NAME, DEFAULT): the environment variable NAME, DEFAULT when it is unset or empty
sub knob
{
	my ($name, $default) = @_;
	return (defined $ENV{$name} && $ENV{$name} ne '') ? $ENV{$name} : $default;
}
my $total_seconds   = knob('ULID_SQLSMITH_SECONDS', 30);
my @seeds           = split ' ', knob('ULID_SQLSMITH_SEEDS', '1601 random');
my $max_queries     = knob('ULID_SQLSMITH_QUERIES', '');
my $catalog         = knob('ULID_SQLSMITH_CATALOG', 0);
my $log_statements  = knob('ULID_SQLSMITH_STATEMENTS', 1);
my $selftest_signal = knob('ULID_SQLSMITH_SELFTEST_SIGNAL', '');
my $keep            = knob('ULID_SQLSMITH_KEEP', '');
my $role            = 'ulid_smith';
my $db              = 'smith';

# stop_here(WHY): a failed check, and the end of the run (nothing can run without the knob fixed)
sub stop_here
{
	fail($_[0]);
	done_testing();
	exit;
}
stop_here('ULID_SQLSMITH_SEEDS is empty') unless @seeds;
stop_here("ULID_SQLSMITH_SECONDS is not a number of seconds: '$total_seconds'")
  unless $total_seconds =~ /^[0-9]+$/;
stop_here("ULID_SQLSMITH_QUERIES is not a number of queries: '$max_queries'")
  unless $max_queries =~ /^[0-9]*$/;
stop_here('ULID_SQLSMITH_SECONDS=0 needs ULID_SQLSMITH_QUERIES (a run needs a bound)')
  if $total_seconds == 0 && $max_queries eq '';

my ($sqlsmith) = grep { -x "$_/sqlsmith" } split /:/, $ENV{PATH};
# a tool the server tier does not install (docs/development.md, "Tiers"): the run of every tier does
plan skip_all => 'sqlsmith is not installed (Debian: apt-get install sqlsmith)'
  unless defined $sqlsmith;
my $per_run = int($total_seconds / @seeds);
$per_run = 1 if $total_seconds > 0 && $per_run == 0;

# ---------------------------------------------------------------------------------------------
# server: a log that names user and SQLSTATE on every line, error locations, crashed queries whole
my $bindir = pg_config_value('--bindir', $pg_config);
my $server_version = (run_cmd("$bindir/postgres", '--version'))[1];
chomp $server_version;
my $node = PostgreSQL::Test::Cluster->new('smith');
$node->init(extra => [ '--locale=C.UTF-8', '--encoding=UTF8' ]);
$node->append_conf(
	'postgresql.conf', qq(
log_line_prefix = '%m [%p] user=%u sqlstate=%e '
log_error_verbosity = verbose
log_min_messages = warning
log_statement = none
track_activity_query_size = 65536
track_functions = all
max_connections = 20
restart_after_crash = on
));
$node->append_conf('postgresql.conf', "log_min_error_statement = panic\n")
  if $log_statements eq '0';
must(
	$node->start(fail_ok => 1)
	  && node_sql_ok(
		$node,
		"CREATE ROLE $role LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
		 CREATE DATABASE $db;"),
	"server of $server_version started, role $role and database $db created");
my $log         = $node->logfile;
my $version_num = node_query($node, 'SHOW server_version_num');

# smith_query(SQL): psql's output in the database smith ('' and the error as a diagnostic on an
# error); smith_psql(SQL): psql's exit status, output and error text there
sub smith_psql
{
	return $node->psql($db, $_[0]);
}

sub smith_query
{
	my ($rc, $out, $err) = smith_psql($_[0]);
	if ($rc != 0)
	{
		diag("$db: query failed: $err");
		return '';
	}
	return $out;
}

# ---------------------------------------------------------------------------------------------
# fixture
my $fixture_sql = <<'SQL' =~ s/\@ROLE\@/$role/gr;
CREATE EXTENSION ulid;
CREATE EXTENSION amcheck;
SET TimeZone = 'UTC';

CREATE TABLE smith_ulid (
    id ulid PRIMARY KEY,
    ref ulid,
    u uuid,
    ids ulid[],
    ts timestamptz,
    label text,
    raw bytea
);
INSERT INTO smith_ulid
SELECT gen_ulid(t.ts),
       CASE WHEN i % 7 = 0 THEN NULL ELSE gen_random_ulid() END,
       CASE WHEN i % 11 = 0 THEN NULL ELSE gen_random_uuid() END,
       CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN '{}'::ulid[]
                  WHEN 2 THEN ARRAY[gen_ulid(t.ts), NULL, ulid_max(t.ts)]
                  ELSE ARRAY[ulid_min(t.ts), gen_random_ulid()] END,
       CASE WHEN i % 13 = 0 THEN NULL ELSE t.ts END,
       CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN lower(gen_ulid(t.ts)::text)
                  ELSE gen_ulid(t.ts)::text END,
       CASE i % 4 WHEN 0 THEN NULL ELSE ulid_to_bytea(gen_ulid(t.ts)) END
FROM generate_series(1, 2000) i,
     LATERAL (SELECT timestamptz '1970-01-01' + (i * i) * interval '19 hours 11 seconds') t(ts);

-- the extremes and the odd: ends of the range, invalid texts, wrong byte lengths, infinities
INSERT INTO smith_ulid (id, ref, u, ids, ts, label, raw) VALUES
    ('00000000000000000000000000', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '00000000-0000-0000-0000-000000000000',
     '{00000000000000000000000000,7ZZZZZZZZZZZZZZZZZZZZZZZZZ,NULL}', '1970-01-01 00:00:00+00',
     '00000000000000000000000000', '\x00000000000000000000000000000000'),
    ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '00000000000000000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
     '{NULL,NULL}', '10889-08-02 05:31:50.655+00', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
     '\xffffffffffffffffffffffffffffffff'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAV', NULL, NULL, '{}', '10889-08-02 05:31:50.656+00',
     '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', '\x'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAW', NULL, '01890a5d-ac96-774b-bcce-b302099a8057', NULL, 'infinity',
     '01arz3ndektsv4rrffq69g5fav', '\x0102030405060708090a0b0c0d0e0f'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAX', '01ARZ3NDEKTSV4RRFFQ69G5FAX', NULL, NULL, '-infinity',
     '01ARZ3NDEKTSV4RRFFQ69G5FAU', '\x0102030405060708090a0b0c0d0e0f1011'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAY', NULL, NULL, NULL, '1969-12-31 23:59:59.999+00',
     'OIL0OIL0OIL0OIL0OIL0OIL0OI', '\x0102'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAZ', NULL, NULL, NULL, '4713-01-01 00:00:00+00 BC',
     '01ARZ3NDEKTSV4RRFFQ69G5FA', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB0', NULL, NULL, NULL, '294276-12-31 23:59:59+00',
     '01ARZ3NDEKTSV4RRFFQ69G5FAV0', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB1', NULL, NULL, NULL, '2000-01-01 00:00:00.0005+00', '', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB2', NULL, NULL, NULL, NULL, ' 01ARZ3NDEKTSV4RRFFQ69G5FAV', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB3', NULL, NULL, NULL, NULL, E'01ARZ3NDEKTSV4RRFFQ69G5F\u00e9', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB4', NULL, NULL, NULL, NULL, '01ARZ3NDEKTSV4RRFFQ69G5F-V', NULL);

-- an index for every operator class of the extension here, on every column of smith_ulid of its
-- input type (ulid: id and ref; uuid: u, for the cross-type classes of 0.3.0 on); BRIN with one page
-- per range. Read from the catalog: whatever the major and the release
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT c.opcname, a.amname, att.attname
             FROM pg_catalog.pg_depend d
             JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
             JOIN pg_catalog.pg_opclass c ON d.classid = 'pg_catalog.pg_opclass'::pg_catalog.regclass AND c.oid = d.objid
             JOIN pg_catalog.pg_am a ON a.oid = c.opcmethod
             JOIN pg_catalog.pg_attribute att ON att.attrelid = 'smith_ulid'::pg_catalog.regclass
                  AND att.atttypid = c.opcintype AND att.attnum > 0 AND NOT att.attisdropped
             WHERE d.deptype = 'e' ORDER BY 1, 2, 3
    LOOP
        EXECUTE format('CREATE INDEX %I ON smith_ulid USING %I (%I %I)%s',
                       format('smith_ulid_%s_%s_%s', r.attname, r.amname, r.opcname), r.amname, r.attname,
                       r.opcname, CASE WHEN r.amname = 'brin' THEN ' WITH (pages_per_range = 1)' ELSE '' END);
    END LOOP;
END
$$;
CREATE INDEX smith_ulid_ids_gin ON smith_ulid USING gin (ids);
CREATE INDEX smith_ulid_ref_ts ON smith_ulid (ref, ts);
CREATE UNIQUE INDEX smith_ulid_u ON smith_ulid (u);
CREATE INDEX smith_ulid_id_text ON smith_ulid ((id::text));
CREATE STATISTICS smith_ulid_stats ON ref, ts, u FROM smith_ulid;

CREATE TABLE smith_uuid (
    key uuid PRIMARY KEY,
    owner ulid REFERENCES smith_ulid (id),
    at timestamptz,
    tags ulid[]
);
INSERT INTO smith_uuid
SELECT id::uuid, CASE WHEN n % 3 = 0 THEN NULL ELSE id END, ts, ids
FROM (SELECT id, ts, ids, row_number() OVER (ORDER BY id) AS n FROM smith_ulid) s WHERE n % 2 = 0;
CREATE INDEX smith_uuid_owner ON smith_uuid USING hash (owner);
CREATE INDEX smith_uuid_at ON smith_uuid USING brin (at) WITH (pages_per_range = 1);

CREATE TABLE smith_range (id ulid NOT NULL, ts timestamptz, note text) PARTITION BY RANGE (id);
CREATE TABLE smith_range_old PARTITION OF smith_range
    FOR VALUES FROM ('00000000000000000000000000') TO ('01BX5ZZKBK0000000000000000');
CREATE TABLE smith_range_new PARTITION OF smith_range
    FOR VALUES FROM ('01BX5ZZKBK0000000000000000') TO ('05000000000000000000000000');
CREATE TABLE smith_range_rest PARTITION OF smith_range DEFAULT;
CREATE INDEX ON smith_range (id);
INSERT INTO smith_range SELECT id, ts, label FROM smith_ulid;

CREATE TABLE smith_hash (id ulid PRIMARY KEY, ref ulid) PARTITION BY HASH (id);
CREATE TABLE smith_hash_0 PARTITION OF smith_hash FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE smith_hash_1 PARTITION OF smith_hash FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE smith_hash_2 PARTITION OF smith_hash FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO smith_hash SELECT id, ref FROM smith_ulid;

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO @ROLE@;
ANALYZE;
-- (for the suite, not granted to the fuzzing role) the extension's operator classes and functions
CREATE VIEW ext_member AS SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
    AND e.extname = 'ulid' WHERE d.deptype = 'e';
CREATE VIEW ext_opclass AS SELECT objid FROM ext_member WHERE classid = 'pg_opclass'::regclass;
CREATE VIEW ext_proc AS SELECT objid FROM ext_member WHERE classid = 'pg_proc'::regclass;
SELECT pg_stat_reset(); -- count only the fuzzer's calls of ulid functions
SQL
{
	my ($rc, $out, $err) = smith_psql($fixture_sql);
	diag("fixture: $err") if $rc != 0;
	must($rc == 0, 'fixture created');
}
note 'fixture: ' . smith_query(
	"SELECT (SELECT count(*) FROM smith_ulid) || ' rows in smith_ulid, '
    || (SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        WHERE c.relname IN ('smith_ulid', 'smith_uuid', 'smith_range', 'smith_hash')) || ' indexes ('
    || (SELECT string_agg(DISTINCT a.amname || ' ' || o.opcname, ', ') FROM pg_index i
        JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
        JOIN pg_opclass o ON o.oid = ANY (i.indclass::oid[]) WHERE o.oid IN (SELECT objid FROM ext_opclass)) || ')'"
);
# every operator class of the extension is used by an index (a class for a type smith_ulid has no
# column of would need one added)
my $unindexed = smith_query(
	"SELECT coalesce(string_agg(a.amname || ' ' || c.opcname || ' (' || c.opcintype::regtype || ')', ', '), '')
    FROM ext_opclass x JOIN pg_opclass c ON c.oid = x.objid JOIN pg_am a ON a.oid = c.opcmethod
    WHERE NOT EXISTS (SELECT FROM pg_index i WHERE c.oid = ANY (i.indclass::oid[]))");
is($unindexed || 'none',
	'none',
	'operator classes of the extension without an index in the fixture (of '
	  . smith_query('SELECT count(*) FROM ext_opclass') . ')');
my $ext_fns = smith_query('SELECT count(*) FROM ext_proc');

# ulid_calls(): (calls, functions called) over the extension's functions, from the statistics;
# (0, 0) when the server does not answer
sub ulid_calls
{
	my @lines = split /\n/, smith_query(
		"SELECT pg_stat_clear_snapshot();
         SELECT coalesce(sum(s.calls), 0) || ' ' || count(*) FILTER (WHERE s.calls > 0)
         FROM ext_proc x JOIN pg_stat_user_functions s ON s.funcid = x.objid");
	my ($calls, $fns) = split ' ', ($lines[-1] // '');
	return ($calls // 0, $fns // 0);
}

# stats_settle(): ulid_calls once the statistics stop changing (13's collector is asynchronous;
# 15+ flushes when the backend exits)
sub stats_settle
{
	my ($prev, @cur) = ('');
	for my $i (1 .. 10)
	{
		@cur = ulid_calls();
		last if "@cur" eq $prev && $i > 2;
		$prev = "@cur";
		select(undef, undef, undef, 0.5);
	}
	return @cur;
}

# The extension's own source files: an error whose LOCATION is one of them was raised by ulid
my %ext_file;
find(sub { $ext_file{$_} = 1 if /\.cpp$/ }, 'src');
my $ext_files = join '|', map { quotemeta } sort keys %ext_file;

# scan_log(FROM_BYTE): summary of the server log from byte FROM_BYTE on, one line a finding:
#   "crash <line>"       for every line that shows a crash (a signal, an abnormal exit code, TRAP,
#                        PANIC, crash recovery) and the query a crashed backend was running
#   "class <XX> <n>"     statements of the role ending in errors, by SQLSTATE class
#   "ext <SQLSTATE> <n>" of those, raised by the extension's code
#   "extmsg <SQLSTATE> <message>"  one line per distinct message of an XX error the extension raised
#   "warn <line>"        a WARNING of a resource leak (relcache, buffer, snapshot, ...; "resource was
#                        not closed" on 17+) or of damaged memory (the memory-context checks of an
#                        assertion-enabled build: "problem in alloc set ...", "detected write past
#                        chunk end ...")
#   "fatal <n>"          FATAL lines of the role (e.g. a backend ended by an administrator command)
sub scan_log
{
	my ($from) = @_;
	my $st     = qr/[0-9A-Z]{5}/;
	my $prefix = qr/ user=(\S*) sqlstate=($st) ([A-Z]+:)/;
	my (@out, %classes, %pending, %msg, %ext, %extmsg);
	my ($fatal, $want_query, $in_query) = (0, 0, 0);
	open(my $fh, '<:raw', $log) or die "$log: $!";
	seek($fh, $from, 0);
	while (my $line = <$fh>)
	{
		chomp $line;
		if ($line =~ /TRAP:|ExceptionalCondition/)
		{
			push @out, "crash $line";
			next;
		}
		if ($line =~
			/terminated by signal|terminated by exception|PANIC:|terminating any other active server processes|all server processes terminated|automatic recovery in progress|was interrupted; last known up/
		  )
		{
			push @out, "crash $line";
			$want_query = 1;
			next;
		}
		if ($line =~ /exited with exit code ([0-9]+)/)
		{
			if ($1 > 1)
			{
				push @out, "crash $line";
				$want_query = 1;
			}
			next;
		}
		if ($line =~
			/WARNING: .*(leak|resource was not closed|problem in (alloc set|Generation|slab|Bump)|detected write past chunk end)/
		  )
		{
			push @out, "warn $line";
			next;
		}
		if ($want_query && $line =~ /Failed process was running:/)
		{
			push @out, "crash $line";
			($want_query, $in_query) = (0, 1);
			next;
		}
		my $prefixed = $line =~ $prefix;
		if ($in_query && !$prefixed)    # further lines of the query
		{
			push @out, "crash $line";
			next;
		}
		$in_query = 0;
		next unless $prefixed;
		my ($user, $state, $level) = ($1, $2, $3);
		next if $user ne $role;
		my ($pid) = $line =~ /(\[[^\]]*\])/;
		if ($level eq 'ERROR:')
		{
			$classes{ substr($state, 0, 2) }++;
			$pending{$pid} = $state;
			($msg{$pid} = $line) =~ s/.* ERROR:  $st: //;
		}
		elsif ($level eq 'FATAL:')
		{
			$fatal++;
		}
		elsif ($level eq 'LOCATION:' && exists $pending{$pid})
		{
			if ($line =~ /, ($ext_files):[0-9]+$/)
			{
				$ext{ $pending{$pid} }++;
				$extmsg{"$pending{$pid} $msg{$pid}"}++ if $pending{$pid} =~ /^XX/;
			}
			delete $pending{$pid};
		}
	}
	close $fh;
	push @out, "class $_ $classes{$_}" for sort keys %classes;
	push @out, "ext $_ $ext{$_}"       for sort keys %ext;
	push @out, "extmsg $_"             for sort keys %extmsg;
	push @out, "fatal $fatal";
	return @out;
}

# listing(COUNTS): "key: n, ..." of a hash of counts, largest n first
sub listing
{
	my ($counts) = @_;
	return join ', ',
	  map { "$_: $counts->{$_}" }
	  sort { $counts->{$b} <=> $counts->{$a} || $a cmp $b } keys %$counts;
}

# tally(KIND, TOTALS, SCAN...): the "KIND <key> <n>" lines of SCAN (scan_log's output) as their sum
# and "key: n, ..." (largest first), each n also added to TOTALS->{key}
sub tally
{
	my ($kind, $totals, @scan) = @_;
	my %counts = map { (split ' ')[ 1, 2 ] } grep { /^\Q$kind\E / } @scan;
	my $sum = 0;
	for (keys %counts)
	{
		$sum += $counts{$_};
		$totals->{$_} += $counts{$_};
	}
	return ($sum, listing(\%counts));
}

# write_file(FILE, TEXT)
sub write_file
{
	my ($file, $text) = @_;
	open(my $fh, '>', $file) or die "$file: $!";
	print $fh $text;
	close $fh;
	return;
}

# ---------------------------------------------------------------------------------------------
# the runs
my $conn = 'host=' . $node->host . ' port=' . $node->port . " user=$role dbname=$db";
my @opts = ('--verbose', "--target=$conn");
push @opts, '--exclude-catalog' unless $catalog eq '1';
push @opts, "--max-queries=$max_queries" if $max_queries ne '';
my $sqlsmith_version = (run_cmd('dpkg-query', '-W', '-f=${Version}', 'sqlsmith'))[1];
$sqlsmith_version = '?' unless $sqlsmith_version =~ /^\S+$/;
note "sqlsmith $sqlsmith_version, options "
  . join(' ', map { /^--target=/ ? "--target=<$role\@$db>" : $_ } @opts) . '; '
  . ($total_seconds > 0 ? "$per_run s per seed" : 'no time bound')
  . ($max_queries ne '' ? ", at most $max_queries queries per seed" : '');

my ($t_queries, $t_errors, $t_crashes, $t_ext, $t_seconds, $t_calls) = (0) x 6;
my (%t_class, %t_extstate);
my @calls_before = stats_settle();
my $run = 0;
for my $seed (@seeds)
{
	$run++;
	my $kind = 'fixed';
	if ($seed eq 'random')
	{
		$seed = int(rand(2_000_000_000));
		$kind = 'random';
	}
	if ($seed !~ /^[0-9]+$/)
	{
		fail("seed '$seed' is not a number");
		next;
	}
	my $label  = "seed $seed ($kind)";
	my $offset = -s $log;
	my @limit;
	if ($total_seconds > 0)
	{
		@limit = ('timeout', '-s', 'INT', '-k', '10', $per_run);
	}
	elsif ($max_queries ne '')
	{
		# a safety bound only (80 queries/s is usual)
		@limit = ('timeout', '-s', 'INT', '-k', '10', int($max_queries / 2) + 600);
	}
	note "$label: running";
	my $t0 = time;
	my $h  = IPC::Run::start(
		[ @limit, 'sqlsmith', @opts, "--seed=$seed" ],
		'<', \undef, '>', "$work/run$run.out", '2>', "$work/run$run.err");
	if ($selftest_signal ne '' && $run == 1)
	{
		sleep 3;
		my $pid = node_query($node,
			"SELECT pid FROM pg_stat_activity WHERE usename = '$role' AND application_name LIKE 'sqlsmith%' LIMIT 1"
		);
		note "self-test: kill -$selftest_signal " . ($pid || '<no backend found>');
		kill($selftest_signal, $pid) if $pid;
	}
	$h->finish;
	# (exit 0: --max-queries reached; 124: stopped by the time bound's SIGINT, after its report)
	my $rc   = $h->result(0);
	my $secs = time - $t0;
	my @calls_after = stats_settle();
	my $err  = slurp_file("$work/run$run.err");
	my ($queries) = ($err =~ /^queries: ([0-9]+)$/mg)[-1];
	if (!ok(defined $queries && ($rc == 0 || $rc == 124),
			"$label: sqlsmith ran and reported its query count ("
			  . ($queries // '?')
			  . " queries in $secs s, exit $rc)"))
	{
		my @lines = split /\n/, $err;
		diag("its last lines:\n" . join("\n", @lines[ ($#lines > 14 ? $#lines - 14 : 0) .. $#lines ]));
		$queries = 0;
	}
	$queries //= 0;

	my @scan = scan_log($offset);
	write_file("$work/run$run.scan", join('', map { "$_\n" } @scan));
	my @crash_lines = map { /^crash (.*)/ ? substr($1, 0, 2000) : () } @scan;
	my $crashes =
	  grep { /^crash .*(terminated by signal|terminated by exception|exited with exit code)/ } @scan;
	my $recoveries = grep { /^crash .*terminating any other active server processes/ } @scan;
	ok(!@crash_lines,
		"$label: no crash in the server log (no backend ended by a signal or an assertion, no crash recovery)"
	  )
	  or diag("$crashes backend(s) ended abnormally, $recoveries crash restart(s):\n"
		  . join("\n", @crash_lines));
	$crashes ||= 1 if @crash_lines;

	my ($errors, $classes) = tally('class', \%t_class,    @scan);
	my ($ext,    $extlist) = tally('ext',   \%t_extstate, @scan);
	my ($fatal) = map { /^fatal ([0-9]+)$/ ? $1 : () } @scan;

	my %warn;
	for (@scan)
	{
		next unless /^warn /;
		my $w = $_ =~ s/^warn .* WARNING:  /WARNING:  /r;
		$warn{ substr($w, 0, 2000) }++;
	}
	my @warn = (sort { $warn{$b} <=> $warn{$a} || $a cmp $b } keys %warn)[ 0 .. 19 ];
	ok(!%warn,
		"$label: no leak warning and no memory-context check failure in the server log")
	  or diag(join "\n", map { sprintf '%7d %s', $warn{$_}, $_ } grep { defined } @warn);

	my @xx = map { /^extmsg (XX.*)/ ? $1 : () } @scan;
	ok(!@xx, "$label: no internal error (class XX) raised by the extension")
	  or diag(join "\n", 'internal errors raised by the extension:', @xx);

	my ($c0) = @calls_before;
	my ($c1, $fns) = @calls_after;
	$c0 = 0 if $c1 < $c0;    # crash recovery resets the statistics
	my $calls = $c1 - $c0;
	$t_calls += $calls;
	@calls_before = @calls_after;
	note "$label: $queries queries, $errors statements ending in errors (by SQLSTATE class: "
	  . ($classes || 'none')
	  . "; raised by ulid: $ext"
	  . ($extlist ? " — $extlist" : '') . '), '
	  . ($fatal // 0)
	  . " FATAL, $crashes crashes, $secs s; $calls calls of ulid functions ($fns of the extension's $ext_fns functions called in all runs so far)";
	$t_queries += $queries;
	$t_errors  += $errors;
	$t_crashes += $crashes;
	$t_ext     += $ext;
	$t_seconds += $secs;
}

# ---------------------------------------------------------------------------------------------
# after all runs
must(smith_query('SELECT 1') eq '1', 'the server still answers');
# (an index that fails raises an error; the count is of the indexes checked)
my ($amrc, $amcheck, $amerr) = smith_psql(
	"SELECT count(*) FROM (SELECT bt_index_check(c.oid, true)
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
    JOIN pg_class t ON t.oid = i.indrelid
    WHERE a.amname = 'btree' AND c.relkind = 'i' AND t.relname LIKE 'smith%') x");
ok($amrc == 0 && $amcheck =~ /^[0-9]+$/ && $amcheck > 0,
	'bt_index_check(heapallindexed) passes on every btree index of the fixture ('
	  . ($amrc == 0 ? $amcheck : '?')
	  . ' checked)')
  or diag("bt_index_check on the fixture's btree indexes: $amcheck$amerr");
my @called = split /\n/, smith_query(
	'SELECT s.funcid::regprocedure FROM ext_proc x JOIN pg_stat_user_functions s ON s.funcid = x.objid
     WHERE s.calls > 0 ORDER BY 1');
cmp_num($t_calls, '>', 0,
	'ulid functions were called by the fuzzed queries (pg_stat_user_functions): '
	  . "$t_calls calls of "
	  . scalar(@called)
	  . " of the extension's $ext_fns functions");
note 'called at least once: ' . join(' ', @called);
note 'total on PostgreSQL '
  . node_query($node, 'SHOW server_version')
  . " ($version_num): "
  . scalar(@seeds)
  . " run(s), $t_queries queries, $t_errors statements ending in errors (by SQLSTATE class: "
  . (listing(\%t_class) || 'none')
  . "; raised by ulid: $t_ext"
  . (%t_extstate ? ' — ' . listing(\%t_extstate) : '')
  . "), $t_crashes crashes, $t_seconds s";
if ($keep ne '')
{
	make_path($keep);
	copy($log, "$keep/server.log") or diag("$keep/server.log: $!");
	copy($_, $keep . '/' . basename($_)) for glob("$work/run*.err $work/run*.scan");
	note "server log and sqlsmith output kept in $keep";
}

note 'sqlsmith took ' . (time - $started) . ' s';
done_testing();
