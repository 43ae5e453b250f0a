# The C++/PostgreSQL wall (src/pg/entry.hpp): a C++ exception thrown in a SQL-callable body becomes
# a PostgreSQL ERROR with the right SQLSTATE (53200 for std::bad_alloc, XX000 otherwise), and the
# backend and its session live on.
#
# Builds the test-only library (make ULID_TEST_THROW=1: ulid_test_throw.so, the whole extension plus
# ulid_test_throw(text), src/pg/test_throw.cpp, and ulid_test_fork(integer), src/pg/test_fork.cpp)
# in a scratch copy of the tree (a temporary directory of the test, as the OS user that runs the TAP
# suites and the server) and installs nothing: a server of its own declares the function from the
# scratch path. The normal build (installed by scripts/test before the TAP suites run) and the
# install scripts must not have it, and make install of the test-only build is refused. Without the
# catch-all, the throw aborts the backend (std::terminate) and the server restarts every session:
# the same-backend and session checks below fail.
# Last, a process forked inside the backend (ulid_test_fork) never hands out the backend's entropy:
# with the pid check that the library used before 0.3.1 (the child inherits MyProcPid) in place of
# the fork generation, the shared-entropy check failed (1,609 entropies handed out by both).

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
my $work      = PostgreSQL::Test::Utils::tempdir;

# count_defined(LIB, REGEX): how many of LIB's defined dynamic symbols match REGEX (nm -D)
sub count_defined
{
	my ($lib, $re) = @_;
	my ($rc, $out) = run_cmd('nm', '-D', '--defined-only', $lib);
	diag("nm -D $lib: $out") if $rc != 0;
	return scalar(grep { /$re/ } split /\n/, $out);
}

# ---- the normal build and install have no such function
my $normal_so = pg_config_value('--pkglibdir', $pg_config) . '/ulid.so';
must(-f $normal_so, "the normal build is installed ($normal_so)");
cmp_num(count_defined($normal_so, qr/ulid_test_throw/),
	'==', 0, 'installed ulid.so: exported ulid_test_throw symbols');
my @scripts = (glob('ulid--*.sql'),
	glob(pg_config_value('--sharedir', $pg_config) . '/extension/ulid--*.sql'));
cmp_num(scalar(grep { slurp_file($_) =~ /ulid_test_throw/ } @scripts),
	'==', 0, 'install scripts (tree and installed) mentioning ulid_test_throw');

# ---- the test-only build, in a scratch copy (no object of the normal build is reused)
my $tree = "$work/tree";
my @make;
must_run('make ULID_TEST_THROW=1 in a scratch copy',
	sub { @make = test_build($tree, 'ULID_TEST_THROW', $pg_config) });
my $lib = "$tree/ulid_test_throw.so";
cmp_num(count_defined($lib, qr/\bulid_test_throw\b/),
	'==', 1, 'ulid_test_throw.so exports ulid_test_throw');
isnt((run_cmd(@make, 'install', "DESTDIR=$work/dest"))[0],
	0, 'make install of the test-only build is refused');

my $node = PostgreSQL::Test::Cluster->new('wall');
$node->init;
$node->start;
must(
	node_sql_ok(
		$node,
		"CREATE FUNCTION ulid_test_throw(text) RETURNS text AS '$lib', 'ulid_test_throw' LANGUAGE C STRICT"
	),
	'ulid_test_throw(text) declared from the scratch build');

# ---- one session: each kind of throw is an ERROR, and the same backend carries on
my (undef, $stdout, $stderr) = $node->psql('postgres', <<'SQL', on_error_stop => 0);
\set VERBOSITY verbose
SELECT pg_backend_pid() AS pid \gset
\echo before: ok
SELECT ulid_test_throw('bad_alloc');
\echo RESULT bad_alloc :LAST_ERROR_SQLSTATE
SELECT ulid_test_throw('operator_new');
\echo RESULT operator_new :LAST_ERROR_SQLSTATE
SELECT ulid_test_throw('runtime_error');
\echo RESULT runtime_error :LAST_ERROR_SQLSTATE
SELECT ulid_test_throw('int');
\echo RESULT int :LAST_ERROR_SQLSTATE
-- an ordinary PostgreSQL error raised inside the same body (ereport's longjmp through the wrapper)
SELECT ulid_test_throw('no such kind');
\echo RESULT ereport :LAST_ERROR_SQLSTATE
SELECT 'SAME ' || (pg_backend_pid() = :pid);
SELECT 'NONE ' || ulid_test_throw('none');
-- inside a transaction: the savepoint rolls back the error, the transaction commits
CREATE TEMP TABLE kept (x int);
BEGIN;
INSERT INTO kept VALUES (1);
SAVEPOINT s;
SELECT ulid_test_throw('runtime_error');
ROLLBACK TO SAVEPOINT s;
INSERT INTO kept VALUES (2);
COMMIT;
SELECT 'KEPT ' || count(*) FROM kept;
-- PL/pgSQL catches them by condition name, 1,000 times in one backend
DO $$
DECLARE
    oom int := 0;
    internal int := 0;
BEGIN
    FOR i IN 1..1000 LOOP
        BEGIN
            PERFORM ulid_test_throw(CASE WHEN i % 2 = 0 THEN 'bad_alloc' ELSE 'runtime_error' END);
        EXCEPTION
            WHEN out_of_memory THEN oom := oom + 1;
            WHEN internal_error THEN internal := internal + 1;
        END;
    END LOOP;
    RAISE NOTICE 'CAUGHT % %', oom, internal;
END
$$;
SELECT 'SAME2 ' || (pg_backend_pid() = :pid);
SQL
my $out = "$stdout\n$stderr";
note join("\n", map { "  $_" } split /\n/, $out);

# has NAME, TEXT: a check that the session's output (stdout and stderr) holds TEXT
sub has
{
	my ($name, $want) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	return ok(index($out, $want) >= 0, $name) || diag("not in the output (above): $want");
}
has('bad_alloc: SQLSTATE 53200',    'RESULT bad_alloc 53200');
has('bad_alloc: message and detail', 'DETAIL:  C++ allocation failed in ulid_test_throw.');
has('operator new failing: SQLSTATE 53200', 'RESULT operator_new 53200');
has('runtime_error: SQLSTATE XX000',        'RESULT runtime_error XX000');
has('runtime_error: message', 'ERROR:  XX000: unexpected C++ exception in ulid_test_throw');
has('runtime_error: what() in the detail', 'DETAIL:  thrown on purpose by ulid_test_throw');
has('a non-std exception: SQLSTATE XX000',  'RESULT int XX000');
has('ereport inside the body: SQLSTATE 22023', 'RESULT ereport 22023');
cmp_num(scalar(grep { /\QERROR:  53200: out of memory\E/ } split /\n/, $out),
	'==', 2, 'errors reported as out of memory');
has('same backend after the throws',             'SAME true');
has('session continues: a normal call returns', 'NONE returned');
has('savepoint rolled back the throw, the transaction committed', 'KEPT 2');
has('PL/pgSQL caught 500 out_of_memory and 500 internal_error',  'CAUGHT 500 500');
has('same backend after 1,000 more',                             'SAME2 true');
unlike($out, qr/server closed the connection/, 'no lost connection');

# ---- a process forked inside a backend (src/pg/test_fork.cpp): ulid_test_fork(n) makes one
# gen_ulid() and one gen_random_ulid() in the backend, forks, and returns the child's n values of
# each, then the backend's next n of each. A child that kept the backend's read-ahead pool or
# generator state would hand out the backend's next entropy (or its next increment).
must(
	node_sql_ok(
		$node, "CREATE EXTENSION IF NOT EXISTS ulid;
CREATE FUNCTION ulid_test_fork(integer) RETURNS ulid[] AS '$lib', 'ulid_test_fork' LANGUAGE C STRICT"
	),
	'the extension, and ulid_test_fork(integer) declared from the scratch build');
my $fork_out = node_query(
	$node, q{CREATE TEMP TABLE forked (round int, i int, id ulid);
DO $$ BEGIN
    FOR r IN 1..5 LOOP
        INSERT INTO forked SELECT r, a.i, a.id FROM unnest(ulid_test_fork(200)) WITH ORDINALITY a(id, i);
    END LOOP;
END $$;
SELECT count(*), count(DISTINCT id),
       (SELECT count(*) FROM (SELECT substr(id::bytea, 7) FROM forked WHERE i <= 400
                              INTERSECT SELECT substr(id::bytea, 7) FROM forked WHERE i > 400) s),
       (SELECT count(*) FROM (SELECT id > lag(id) OVER (PARTITION BY round ORDER BY i) AS up
                              FROM forked WHERE i <= 200) s WHERE NOT up)
FROM forked});
my ($f_all, $f_distinct, $f_shared, $f_down) = split /\|/, (split /\n/, $fork_out)[-1] // '';
cmp_num($f_all, '==', 4000, 'fork inside a backend: values made (5 forks x 2 processes x 400)');
cmp_num($f_distinct, '==', 4000, 'fork inside a backend: distinct values');
cmp_num($f_shared, '==', 0,
	'fork inside a backend: 80-bit entropies the child and the backend both handed out');
cmp_num($f_down, '==', 0, "fork inside a backend: the child's gen_ulid() values not increasing");
is(node_query($node, 'SELECT gen_ulid() IS NOT NULL'), 't', 'the backend lives on after the forks');

$node->stop;
note 'exception_wall took ' . (time - $started) . ' s';
done_testing();
