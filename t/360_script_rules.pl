# Static rules of the SQL scripts (docs/security.md): in every install and update script from 0.2.1
# on (in the tree and in the server's extension directory) and in the portable edition
# (portable/ulid_portable.sql, portable/tle/*.sql, and the pg_tle file made of them, which must be
# what scripts/portable-tle makes now), every built-in function, operator and cast type is
# pg_catalog-qualified (test/lib/sql_qualified.py, against the pg_catalog names of a server of its
# own of the major under test). 0.1.0 and 0.2.0 are released and exempt; the checker must still
# find the two bare >= of ulid--0.2.0.sql, and report each line of a fixture of violations and
# nothing in a fixture of allowed syntax, so that it is known to work. A server's script identical
# to the tree's is checked once.
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))
#
# The tree's scripts are read from the tree (the current directory, built by scripts/test: the
# scripts the Makefile makes from src/sql are there), the server's from pg_config's
# sharedir/extension. One check per script; the checker's report is the diagnostic of a failure.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Basename qw(basename);
use File::Compare qw(compare);
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started   = time;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $work      = PostgreSQL::Test::Utils::tempdir;
my $extdir    = pg_config_value('--sharedir', $pg_config) . '/extension';
my $builtins  = "$work/builtins.txt";

my $node = PostgreSQL::Test::Cluster->new('rules');
$node->init;
must($node->start(fail_ok => 1), 'server starts');
note node_query($node, 'SELECT version()');

my $names = node_query(
	$node, q{
SELECT 'f ' || proname FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace
UNION SELECT 't ' || typname FROM pg_type WHERE typnamespace = 'pg_catalog'::regnamespace});
must($names ne '', "pg_catalog's function and type names from the server");
{
	open(my $fh, '>', $builtins) or die "$builtins: $!";
	print $fh "$names\n";
	close $fh or die "$builtins: $!";
}
my @names = split /\n/, $names;
cmp_num(scalar(@names), '>', 1000, 'pg_catalog names');
$node->stop;

# checker(FILE): sql_qualified.py's report on FILE (stdout and stderr; empty: nothing found) and
# its exit status
sub checker
{
	my ($file) = @_;
	my ($rc, $out) = run_cmd('python3', 'test/lib/sql_qualified.py', '--builtins', $builtins, $file);
	return ($out, $rc);
}

# qualified(FILE): a check that the checker finds nothing in FILE (its report as the diagnostic)
sub qualified
{
	my ($file) = @_;
	my ($out, $rc) = checker($file);
	ok($out eq '' && $rc == 0, "$file: every built-in qualified") or diag("exit $rc:\n$out");
	return;
}

# version_ge(A, B): A >= B in version order (sort -V for numbers joined by dots)
sub version_ge
{
	my ($v, $w) = @_;
	my @x = split /\./, $v;
	my @y = split /\./, $w;
	while (@x || @y)
	{
		my ($p, $q) = (shift(@x) // 0, shift(@y) // 0);
		my $c = ($p =~ /^\d+$/ && $q =~ /^\d+$/) ? $p <=> $q : $p cmp $q;
		return $c > 0 if $c != 0;
	}
	return 1;
}

note 'the scripts';
my $checked = 0;
for my $dir ('.', $extdir)
{
	for my $f (glob("$dir/ulid--*.sql"))
	{
		my $target = basename($f, '.sql');
		$target =~ s/^.*--//;          # the version a script installs or updates to
		$target =~ s/\+refresh$//;
		next unless version_ge($target, '0.2.1');
		$checked++;
		if ($dir ne '.' && -e './' . basename($f) && compare($f, './' . basename($f)) == 0)
		{
			pass("$f: the tree's file byte for byte (checked above)");
			next;
		}
		qualified($f);
	}
}
cmp_num($checked, '>=', 4, 'install and update scripts from 0.2.1 on checked (tree and server)');
qualified($_)
  for ('portable/ulid_portable.sql', glob('portable/tle/*.sql'), 'portable/ulid_portable_tle.sql');
{
	my ($rc, $out) = run_cmd('python3', 'scripts/portable-tle', '--check');
	ok($rc == 0, 'portable/ulid_portable_tle.sql is what scripts/portable-tle makes of its sources')
	  or diag($out);
}

note 'the checker finds what it must';
{
	my ($out) = checker('ulid--0.2.0.sql');
	is(scalar(grep { /unqualified operator >=/ } split /\n/, $out),
		2, 'ulid--0.2.0.sql (released, exempt): its two bare >= are found')
	  or diag($out);
}

# write_file(NAME, TEXT): TEXT in $work/NAME; its path
sub write_file
{
	my ($name, $text) = @_;
	my $path = "$work/$name";
	open(my $fh, '>', $path) or die "$path: $!";
	print $fh $text;
	close $fh or die "$path: $!";
	return $path;
}

# Each line marked "-- bad" holds exactly one violation; nothing else may be reported.
my $bad_sql = <<'SQL';
SELECT lower('A');                                           -- bad
SELECT 1 + 2;                                                -- bad
SELECT x FROM t WHERE a = 1;                                 -- bad
SELECT 'x'::text;                                            -- bad
SELECT a FROM t WHERE a IN (1, 2);                           -- bad
SELECT a FROM t WHERE a BETWEEN 1 AND 2;                     -- bad
SELECT a FROM t WHERE a LIKE 'x%';                           -- bad
SELECT a IS DISTINCT FROM b FROM t;                          -- bad
SELECT NULLIF(a, b) FROM t;                                  -- bad
SELECT CASE a WHEN 1 THEN 2 END FROM t;                      -- bad
SELECT -a FROM t;                                            -- bad
CREATE FUNCTION f() RETURNS int4 LANGUAGE sql AS 'SELECT 1'; -- bad
DO $x$ BEGIN IF pg_catalog.now() >= pg_catalog.now() THEN NULL; END IF; END $x$; -- bad
DO $x$ BEGIN EXECUTE pg_catalog.format($f$SELECT %L || 'x'$f$, 1); END $x$; -- bad
CREATE OPERATOR CLASS c FOR TYPE pg_catalog.uuid USING btree FAMILY ulid_ops AS OPERATOR 1 < (pg_catalog.uuid, pg_catalog.uuid); -- bad
ALTER OPERATOR FAMILY ulid_ops USING btree ADD OPERATOR 3 = (uuid, uuid);   -- bad
COMMENT ON OPERATOR =(pg_catalog.uuid, pg_catalog.uuid) IS 'x';             -- bad
SQL
{
	my $bad      = write_file('bad.sql', $bad_sql);
	my @lines    = split /\n/, $bad_sql;
	my @expected = grep { $lines[ $_ - 1 ] =~ /-- bad$/ } 1 .. @lines;
	my ($out) = checker($bad);
	my @got = map { /^[^:]+:(\d+): / ? $1 : () } split /\n/, $out;
	is("@got", "@expected", 'each violation of the fixture reported once, on its line')
	  or diag($out);
}

my $good_sql = <<'SQL';
\echo Use "CREATE EXTENSION x" to load this file. \quit
-- a comment with lower(x) and a = b; /* a block comment with 1 + 1 */
CREATE TYPE ulid;
CREATE FUNCTION ulid_eq(ulid, ulid) RETURNS pg_catalog.bool AS 'MODULE_PATHNAME', 'ulid_eq' LANGUAGE C;
CREATE OPERATOR = (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq, COMMUTATOR = =, NEGATOR = <>,
                   RESTRICT = pg_catalog.eqsel, MERGES, HASHES);
COMMENT ON OPERATOR =(ulid, ulid) IS 'equal: a = b';
CREATE AGGREGATE min(ulid) (SFUNC = ulid_smaller, STYPE = ulid, SORTOP = <, PARALLEL = SAFE);
CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING btree AS OPERATOR 1 < , OPERATOR 3 = ,
    OPERATOR 1 pg_catalog.< (pg_catalog.uuid, pg_catalog.uuid), FUNCTION 1 ulid_cmp(ulid, ulid),
    FUNCTION 2 pg_catalog.uuid_cmp(pg_catalog.uuid, pg_catalog.uuid);
ALTER OPERATOR FAMILY ulid_ops USING btree ADD OPERATOR 1 < (ulid, pg_catalog.uuid);
CREATE OPERATOR = (LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_eq, COMMUTATOR = =);
COMMENT ON OPERATOR <>(pg_catalog.uuid, ulid) IS 'not equal';
SELECT pg_catalog.count(*), x.* FROM t AS x WHERE x.a OPERATOR(pg_catalog.=) -1
   AND COALESCE(x.b, 0) OPERATOR(pg_catalog.<>) OPERATOR(pg_catalog.-) x.c;
DO $d$
DECLARE
    v pg_catalog.int4 := -2147483648;
    s pg_catalog.text := pg_catalog.format('%s', 'a = b');
BEGIN
    FOR i IN 1 .. 10 LOOP NULL; END LOOP;
    FOREACH s IN ARRAY ARRAY['a']::pg_catalog.text[] LOOP NULL; END LOOP;
    FOR s IN (SELECT 'x') LOOP NULL; END LOOP;
    RAISE EXCEPTION 'x %', v USING ERRCODE = '42501', DETAIL = 'y', HINT = 'z';
    EXECUTE pg_catalog.format($f$SELECT %1$L::pg_catalog.bytea, pg_catalog.lower(%2$s)$f$, 'a', 'b');
    PERFORM pg_catalog.set_config('search_path', 'a', true) WHERE EXISTS (SELECT FROM t) AND v IS NOT NULL;
END
$d$;
SELECT CASE WHEN a OPERATOR(pg_catalog.=) 1 THEN 'x' ELSE 'y' END, pg_catalog.lower(b => 'x') FROM t;
SQL
{
	my ($out) = checker(write_file('good.sql', $good_sql));
	is($out, '', 'nothing reported in the fixture of allowed syntax');
}

note 'script_rules took ' . (time - $started) . ' s';

done_testing();
