# Upgrade-path harness: every released version reaches default_version through ALTER EXTENSION
# UPDATE, and ends with exactly the objects of a fresh install.
#
# Versions are discovered from this tree: install scripts ulid--<v>.sql, update scripts
# ulid--<a>--<b>.sql (the committed ones and those src/sql/assemble.sh makes, the Makefile's
# BUILT_SCRIPTS, made here in a scratch directory), and default_version in ulid.control. Checks:
#   - the default version has an install script, no version is newer than the default, every
#     released script is pinned in test/lib/released_scripts.sha256 and unchanged, and the server has
#     exactly this tree's scripts installed (same versions, identical files under
#     `pg_config --sharedir`/extension), so the checks below test this tree;
#   - a fresh install's catalog description (below) is the same twice and non-empty, and
#     ALTER EXTENSION ulid UPDATE on it is a no-op;
#   - for every version older than the default: pg_extension_update_paths('ulid') has a path to
#     the default version, and in a fresh database CREATE EXTENSION ulid VERSION '<old>' followed by
#     ALTER EXTENSION ulid UPDATE ends at the default version with a catalog description identical
#     to the fresh install's; also when the old version was installed on an older major (what
#     pg_upgrade carries over): the objects some majors lack (BRIN minmax-multi/bloom before 14,
#     skip support before 18) are taken out of the extension first, and the update adds them back;
#   - the refresh round trip after pg_upgrade (docs/upgrading.md): '<default>+refresh' is a
#     waypoint, not a release (update scripts <default>--<default>+refresh and back, no install
#     script); ALTER EXTENSION ulid UPDATE TO '<default>+refresh' then UPDATE gives the fresh
#     install's description, on a fresh install and with the major-dependent objects taken out; it
#     refuses (42710, version unchanged) when an operator class of one of those names that is not
#     the extension's own sits in its schema;
#   - a lone operator family of each name the scripts create, not the extension's own: CREATE
#     EXTENSION refuses it (42710, nothing installed) and goes through once it is dropped; on 14 and
#     later every update into the default version (from each older release and through the refresh
#     round trip, the BRIN classes missing as after pg_upgrade from 13) refuses a foreign class and
#     then its left-over family (42710, version and catalog unchanged), goes through after the
#     documented fix, and pg_dump | psql of the database restores the same catalog; on 13 an
#     unrelated ulid_bloom_ops family stays outside the extension.
# The description (test/lib/ulid_describe.sql): every member object (pg_describe_object, with its
# comment); every member function's signature, result, language, symbol, volatility, strictness,
# parallel safety, leakproofness, cost, owner and ACL; the type's definition; operators with their
# functions, estimators, commutator, negator, merge/hash flags; operator classes and families with
# every pg_amop/pg_amproc entry; casts; aggregates; the extension row.
#
# Runs on every major (no light pass leaves it out), on a node of its own, as the
# user postgres; it installs nothing: the server under test must have this tree's extension
# installed (scripts/test does that before the pass). One database per version and case.

use strict;
use warnings;

use Cwd;
use Digest::SHA qw(sha256_hex);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started   = time;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $work      = PostgreSQL::Test::Utils::tempdir;
my $extdir    = pg_config_value('--sharedir', $pg_config) . '/extension';

# vcmp(A, B): sort -V's order of two versions (numeric components, then the rest as text)
sub vcmp
{
	my ($v1, $v2) = @_;
	my @p1 = split /(\d+)/, $v1;
	my @p2 = split /(\d+)/, $v2;
	while (@p1 && @p2)
	{
		my ($x, $y) = (shift @p1, shift @p2);
		my $c = ($x =~ /^\d+$/ && $y =~ /^\d+$/) ? $x <=> $y : $x cmp $y;
		return $c if $c;
	}
	return @p1 <=> @p2;
}

# ---------------------------------------------------------------------------------------------
# what the repository says: ulid.control, the committed ulid--*.sql and those assemble.sh makes
my %tree_file = extension_files($work);
my @scripts = sort grep { /^ulid--.*\.sql$/ } keys %tree_file;
my ($default) =
  $tree_file{'ulid.control'} =~ /^\s*default_version\s*=\s*'([^']+)'/m;
my (@installs, @edges);
my $has_refresh = 0;
for my $f (@scripts)
{
	(my $name = $f) =~ s/^ulid--(.*)\.sql$/$1/;
	if   ($name =~ /--/) { push @edges,    $name }
	else                 { push @installs, $name }
	$has_refresh = 1 if $name =~ /\+refresh/;
}
my %seen;
my @versions = sort { vcmp($a, $b) } grep { !$seen{$_}++ && !/\+refresh$/ } @installs,
  (map { split /--/, $_, 2 } @edges), (defined $default ? $default : ());
note 'repository ' . Cwd::getcwd();
note 'default_version '
  . ($default // '<none>')
  . '; install scripts: '
  . join(' ', @installs)
  . '; update scripts: '
  . join(' ', @edges);
note "versions: @versions";
ok(defined $default, 'ulid.control names default_version ' . ($default // '<none>'));
BAIL_OUT('ulid.control has no default_version') unless defined $default;
ok($tree_file{"ulid--$default.sql"}, "install script ulid--$default.sql exists");
my @older = grep { vcmp($_, $default) < 0 } @versions;
my @newer = grep { vcmp($_, $default) > 0 } @versions;
is("@newer", '',
	"no version newer than default_version $default (bump default_version or drop the script)");
note "released versions older than $default: "
  . (join(' ', @older) || 'none') . ' ('
  . scalar(@older) . ')';
my $refresh = "$default+refresh";
# Waypoints: '<v>+refresh' for each release that has the round trip (0.2.0 on; released ones stay).
%seen = ();
my @waypoints = sort { vcmp($a, $b) }
  grep { /\+refresh$/ && !$seen{$_}++ } map { split /--/, $_, 2 } @edges;
if ($has_refresh)
{
	for my $w (@waypoints)
	{
		(my $v = $w) =~ s/\+refresh$//;
		ok($tree_file{"ulid--$_.sql"}, "refresh edge ulid--$_.sql exists") for "$v--$w", "$w--$v";
		ok(!$tree_file{"ulid--$w.sql"},
			"the refresh waypoint $w has no install script");
	}
	my @astray = grep {
		my ($from, $to) = split /--/, $_, 2;
		/\+refresh/ && $to ne "$from+refresh" && $from ne "$to+refresh"
	} @edges;
	is("@astray", '',
		'update scripts of a refresh waypoint lead only from its version and back to it');
}
ok((grep { $_ eq $refresh } @waypoints),
	"a refresh round trip for $default (ulid--$default--$refresh.sql and back; docs/upgrading.md)");

# Released scripts never change: test/lib/released_scripts.sha256 pins every script of every
# released version (default_version included: it is released once it lands), committed or made by
# the Makefile; a script of such a version that is not pinned is an error too.
my (%pinned, @missing, @changed);
for my $line (split /\n/, slurp_file('test/lib/released_scripts.sha256'))
{
	next if $line =~ /^\s*(#|$)/;
	my ($sum, $file) = split ' ', $line;
	$pinned{$file} = 1;
	if (!defined $tree_file{$file}) { push @missing, $file }
	elsif (sha256_hex($tree_file{$file}) ne $sum) { push @changed, $file }
}
is("@missing", '', 'every pinned released script is in the tree');
is("@changed", '',
	'no released script changed (a released script never changes: make a new release)');
my @unpinned = grep { !$pinned{$_} } @scripts;
is("@unpinned", '',
	'every script is pinned in test/lib/released_scripts.sha256 (a script of a released version)');
cmp_num(scalar(keys %pinned), '>', 0, 'released scripts pinned and unchanged');

# ---------------------------------------------------------------------------------------------
# the server
my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->start;
my $server_num = node_query($node, 'SHOW server_version_num');
note "server $server_num, scripts under $extdir";

# qry(DB, SQL): psql's output (-XAtq, ON_ERROR_STOP); on an error, a diagnostic and undef
sub qry
{
	my ($db, $sql) = @_;
	my ($rc, $out, $err) = $node->psql($db, $sql);
	return $out if $rc == 0;
	diag("$db: query failed: $err");
	return undef;
}

# q_err(DB, SQL): SQL with VERBOSITY verbose, its error text ('' when it succeeded)
sub q_err
{
	my ($db, $sql) = @_;
	my ($rc, $out, $err) =
	  $node->psql($db, $sql, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return $err // '';
}

# step(DB, SQL): a set-up statement the next checks depend on; the end of the run when it fails
sub step
{
	my ($db, $sql) = @_;
	my ($rc, $out, $err) = $node->psql($db, $sql);
	return if $rc == 0;
	fail("$db: $sql");
	BAIL_OUT("set-up statement failed in $db: $err");
}

my $n_db = 0;

# fresh_db(SUFFIX): an empty database, its name
sub fresh_db
{
	my ($suffix) = @_;
	(my $db = 'upg_' . ++$n_db . "_$suffix") =~ s/[^A-Za-z0-9_]/_/g;
	$db = substr($db, 0, 63);
	step('postgres', qq(CREATE DATABASE "$db" TEMPLATE template0));
	return $db;
}

sub extversion
{
	return qry($_[0], "SELECT extversion FROM pg_extension WHERE extname = 'ulid'") // '';
}

# The catalog description of the installed ulid extension (test/lib/ulid_describe.sql).
my $DESCRIBE_SQL = slurp_file('test/lib/ulid_describe.sql');

# describe(DB [, FIRST]): the description, after the statements FIRST in the same session (one
# psql run for both); a failing query is a failed check (and '')
sub describe
{
	my ($db, $first) = @_;
	my ($rc, $out, $err) = $node->psql($db, ($first // '') . "\n$DESCRIBE_SQL");
	return $out if $rc == 0;
	fail("catalog description query in $db");
	diag($err);
	return '';
}

# as_if_older_major(DB): take out of the extension (and drop) what only newer majors have, as a
# database carried over by pg_upgrade from an older major lacks it: BRIN minmax-multi and bloom
# (14+), b-tree skip support (18+). Returns how many of these objects there were.
my $AS_IF_OLDER_SQL = <<'SQL';
SET search_path = pg_catalog;
SELECT format('ALTER EXTENSION ulid DROP OPERATOR CLASS %1$s USING brin;
               ALTER EXTENSION ulid DROP OPERATOR FAMILY %1$s USING brin;
               DROP OPERATOR FAMILY %1$s USING brin;', quote_ident(n.nspname) || '.' || quote_ident(c.opcname))
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod JOIN pg_namespace n ON n.oid = c.opcnamespace
WHERE a.amname = 'brin' AND c.opcname IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops')
UNION ALL
SELECT format('ALTER OPERATOR FAMILY %1$s.ulid_ops USING btree DROP FUNCTION 6 (%1$s.ulid, %1$s.ulid);
               ALTER EXTENSION ulid DROP FUNCTION %2$s;
               DROP FUNCTION %2$s;', quote_ident(n.nspname), p.oid::regprocedure)
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.proname = 'ulid_skipsupport'
\gexec
SQL

sub as_if_older_major
{
	my ($db) = @_;
	my $n = qry(
		$db,
		"SELECT (SELECT count(*) FROM pg_opclass WHERE opcname IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops'))
              + (SELECT count(*) FROM pg_proc WHERE proname = 'ulid_skipsupport')");
	my ($rc, $out, $err) = $node->psql($db, $AS_IF_OLDER_SQL);
	if ($rc != 0)
	{
		fail("take the major-dependent objects out of the extension in $db");
		diag($err);
	}
	return $n // 0;
}

# ---------------------------------------------------------------------------------------------
# the server has exactly this tree's scripts
is( qry('postgres',
		"SELECT string_agg(version, ' ' ORDER BY version COLLATE \"C\") FROM pg_available_extension_versions WHERE name = 'ulid'"
	),
	# (the server also lists versions it reaches by an update path from an installable one: the waypoint)
	join(' ', sort(@installs, @waypoints)),
	'versions the server can install = the repository\'s');
is(qry('postgres', "SELECT default_version FROM pg_available_extensions WHERE name = 'ulid'"),
	$default, "the server's default_version");
my @differ;
for my $f (sort keys %tree_file)
{
	my $at = "$extdir/$f";
	push @differ, "$f (not installed or different)"
	  unless -f $at && slurp_file($at) eq $tree_file{$f};
}
for my $at (glob "$extdir/ulid--*.sql")
{
	(my $f = $at) =~ s{.*/}{};
	push @differ, "$f (installed but not in the repository)" unless exists $tree_file{$f};
}
is_deeply(\@differ, [],
	'no repository script missing from or different on the server, nor extra there (make install)');

# ---------------------------------------------------------------------------------------------
note "fresh install of $default";
my $fresh_db = fresh_db('fresh');
ok(defined qry($fresh_db, 'CREATE EXTENSION ulid'), "CREATE EXTENSION ulid (fresh, $fresh_db)");
my $fresh  = describe($fresh_db);
my $fresh2 = describe($fresh_db);
my @lines  = split /\n/, $fresh;
cmp_num(scalar(@lines), '>', 50, 'catalog description lines of the fresh install');
note sprintf(
	'  %d members, %d functions, %d operators, %d amop and %d amproc entries, %d casts, %d aggregates',
	map {
		my $p = $_;
		scalar grep { /^$p / } @lines
	} qw(member function operator amop amproc cast aggregate));
ok($fresh eq $fresh2, 'the description is deterministic');
is(extversion($fresh_db), $default, 'extversion after the fresh install');
ok( defined qry($fresh_db, 'SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE'),
	'ALTER EXTENSION ulid UPDATE on the default version');
same_lines(describe($fresh_db), $fresh,
	"ALTER EXTENSION ulid UPDATE on $default changes nothing");

# same_as_fresh(DB, WHAT): DB's catalog description equals the fresh install's; returns it
sub same_as_fresh
{
	my ($db, $what) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $d = describe($db);
	same_lines($d, $fresh,
		"catalog $what identical to a fresh $default install (" . scalar(() = $d =~ /^./mg) . ' lines)', 30);
	return $d;
}

# described_version(DESCRIPTION): the extension's version its description's extension line names
sub described_version
{
	my ($d) = @_;
	return $d =~ /^extension .* version=(\S+) /m ? $1 : '<no extension line>';
}

# update_from(VERSION, OLDER_MAJOR): CREATE EXTENSION ulid VERSION, (take out what older majors
# lack,) ALTER EXTENSION ulid UPDATE: at the default version, as a fresh install
sub update_from
{
	my ($v, $older_major) = @_;
	my $label = $older_major ? "$v (as if installed on an older major)" : $v;
	my $db = fresh_db($v . ($older_major ? 'older_major' : ''));
	ok(defined qry($db, "CREATE EXTENSION ulid VERSION '$v'"), "CREATE EXTENSION ulid VERSION '$v'")
	  or return;
	if ($older_major)
	{
		my $n = as_if_older_major($db);
		note "  took $n major-dependent object(s) out of the extension";
	}
	ok(defined qry($db, 'SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE'),
		"ALTER EXTENSION ulid UPDATE from $label");
	my $d = same_as_fresh($db, "after $label -> $default");
	is(described_version($d), $default, "extversion after updating from $label");
	return;
}

for my $v (@older)
{
	note "upgrade from $v";
	my $path = qry(
		'postgres', "SELECT coalesce(path, '<none>') FROM pg_extension_update_paths('ulid')
                     WHERE source = '$v' AND target = '$default'") // '';
	ok($path ne '' && $path ne '<none>', "update path $v -> $default: $path")
	  or diag("no update path from $v to $default (add ulid--$v--<next>.sql up to $default)");
	update_from($v, 0);
	update_from($v, 1);
}
note "no released version before $default: no upgrade to check yet" unless @older;

# ---------------------------------------------------------------------------------------------
# refresh_round_trip(DB, WHAT): UPDATE TO '<default>+refresh', UPDATE: back at default, as fresh
sub refresh_round_trip
{
	my ($db, $what) = @_;
	ok( defined qry($db, "SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE TO '$refresh'"),
		"ALTER EXTENSION ulid UPDATE TO '$refresh' ($what)");
	is(extversion($db), $refresh, "extversion at the waypoint ($what)");
	ok(defined qry($db, 'SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE'),
		"ALTER EXTENSION ulid UPDATE from $refresh ($what)");
	my $d = same_as_fresh($db, "after the refresh round trip ($what)");
	is(described_version($d), $default, "extversion after the round trip ($what)");
	return;
}

if ($has_refresh)
{
	note 'the refresh round trip (the step after pg_upgrade)';
	my $db = fresh_db('refresh');
	step($db, 'CREATE EXTENSION ulid');
	refresh_round_trip($db, 'on a fresh install: nothing to add');
	my $n = as_if_older_major($db);
	note "took $n major-dependent object(s) out of the extension, as after pg_upgrade from an older major";
	refresh_round_trip($db, "after taking $n object(s) out");
	# an operator class of one of those names that is not the extension's: refused, not adopted
	if ($n > 0 && qry($db, "SELECT 1 FROM pg_opclass WHERE opcname = 'ulid_bloom_ops'"))
	{
		step(
			$db, 'ALTER EXTENSION ulid DROP OPERATOR CLASS ulid_bloom_ops USING brin;
                  ALTER EXTENSION ulid DROP OPERATOR FAMILY ulid_bloom_ops USING brin');
		like(
			q_err($db, "ALTER EXTENSION ulid UPDATE TO '$refresh'"),
			qr/ERROR:  42710: operator class ulid_bloom_ops for access method brin already exists and is not part of extension ulid/,
			"the round trip refuses a ulid_bloom_ops that is not the extension's");
		is(extversion($db), $default, 'extversion unchanged after the refusal');
	}
	else
	{
		note 'this major has no BRIN bloom: the refusal of a foreign ulid_bloom_ops is not checked here';
	}
}

# ---------------------------------------------------------------------------------------------
# A lone operator family of a name the scripts create, not the extension's own (left by hand, or
# by a class dropped as a refusal told): the install and every update into the default version
# refuse it (42710, naming the family) and change nothing; after the documented fix (drop that
# family) they go through, and pg_dump | psql of the database works.
my @FAMILIES_14 = ([ 'ulid_minmax_multi_ops', 'brin' ], [ 'ulid_bloom_ops', 'brin' ]);
my @FAMILIES = ([ 'ulid_ops', 'btree' ], [ 'ulid_ops', 'hash' ], [ 'ulid_minmax_ops', 'brin' ]);
push @FAMILIES, @FAMILIES_14 if $server_num >= 140000;

# refused(DB, WHAT, SQL, NAME, AM): SQL fails with 42710 naming the family NAME for AM
sub refused
{
	my ($db, $what, $sql, $fam, $am) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	like(
		q_err($db, $sql),
		qr/ERROR:  42710: operator family "?\Q$fam\E"? for access method "?\Q$am\E"? already exists/,
		"$what: refused with 42710 naming operator family $fam ($am)");
	return;
}

# dump_restores(DB, WHAT, DESCRIPTION): pg_dump DB | psql into a fresh database without an error;
# its catalog is DB's (DESCRIPTION: DB's, described already)
sub dump_restores
{
	my ($db, $what, $described) = @_;
	my $copy = fresh_db('restored');
	my $dump = "$work/dump.sql";
	my ($rc1, $out1) = run_cmd('pg_dump', '-f', $dump, '-d', $node->connstr($db));
	my ($rc2, $out2) = $rc1 == 0
	  ? run_cmd('psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $dump, '-d', $node->connstr($copy))
	  : (1, '');
	if (!ok($rc1 == 0 && $rc2 == 0, "$what: pg_dump | psql into a fresh database"))
	{
		diag("$out1$out2");
		return;
	}
	same_lines(describe($copy), $described, "$what: the restored catalog equals the dumped one");
	return;
}

note 'a lone foreign operator family of each name the scripts create';
for my $fa (@FAMILIES)
{
	my ($fam, $am) = @$fa;
	my $db = fresh_db("lone_${fam}_$am");
	step($db, "CREATE OPERATOR FAMILY public.$fam USING $am");
	refused($db, "CREATE EXTENSION ulid with a foreign $fam ($am) in its schema",
		'CREATE EXTENSION ulid', $fam, $am);
	is( qry(
			$db, "SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'ulid') || '/'
                      || (SELECT count(*) FROM pg_type WHERE typname = 'ulid') || '/'
                      || (SELECT count(*) FROM pg_opfamily WHERE opfname = '$fam')"),
		'0/0/1',
		"nothing installed after the refusal ($fam, $am)");
	step($db, "DROP OPERATOR FAMILY public.$fam USING $am");
	ok(defined qry($db, 'CREATE EXTENSION ulid'),
		"after DROP OPERATOR FAMILY $fam: CREATE EXTENSION ulid");
	same_as_fresh($db, "installed after the foreign $fam ($am) was dropped");
}

if ($server_num >= 140000)
{
	# every update into the default version, from each older release and through the refresh
	# round trip, with the BRIN classes missing (as after pg_upgrade from 13) and a foreign family
	for my $fa (@FAMILIES_14)
	{
		my ($fam, $am) = @$fa;
		for my $from (@older, $refresh)
		{
			my $db = fresh_db("lone_update_${fam}_$from");
			my ($install, $step, $was);
			if ($from eq $refresh)
			{
				$install = 'CREATE EXTENSION ulid';
				$step    = "ALTER EXTENSION ulid UPDATE TO '$refresh'";
				$was     = $default;
			}
			else
			{
				$install = "CREATE EXTENSION ulid VERSION '$from'";
				$step    = 'ALTER EXTENSION ulid UPDATE';
				$was     = $from;
			}
			# in one session: the install, the major-dependent objects taken out (as_if_older_major's
			# statements), and the reported sequence's first step, a same-named class made by hand
			# (refused as before: 42710), dropped as told below, leaving its implicit family behind
			step(
				$db, "$install;
                 $AS_IF_OLDER_SQL
                 CREATE OPERATOR CLASS public.$fam FOR TYPE public.ulid USING brin AS
                 OPERATOR 1 public.= (public.ulid, public.ulid),
                 FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
                 FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
                 FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
                 FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal)"
			);
			like(
				q_err($db, $step),
				qr/ERROR:  42710: operator class \Q$fam\E for access method brin already exists and is not part of extension ulid/,
				"update from $from with a foreign class $fam: refused (42710)");
			my $before = describe($db, "DROP OPERATOR CLASS public.$fam USING brin;");
			refused($db, "update from $from after the class was dropped, its family left",
				$step, $fam, $am);
			my $after = describe($db);
			is(described_version($after), $was, "update from $from: version unchanged after the refusal");
			same_lines($after, $before, "update from $from: catalog unchanged by the refusal");
			ok( defined qry(
					$db, "DROP OPERATOR FAMILY public.$fam USING brin;
                          SET client_min_messages = warning; $step; ALTER EXTENSION ulid UPDATE"),
				"update from $from after DROP OPERATOR FAMILY $fam");
			my $fixed = same_as_fresh($db, "after the update from $from with $fam fixed");
			dump_restores($db, "update from $from with $fam fixed", $fixed);
		}
	}
}
else
{
	note 'this major has no BRIN minmax-multi/bloom: foreign families of those names are not touched';
	my $db = fresh_db('lone_13');
	step($db, 'CREATE OPERATOR FAMILY public.ulid_bloom_ops USING brin');
	ok(defined qry($db, 'CREATE EXTENSION ulid'),
		'CREATE EXTENSION ulid beside an unrelated ulid_bloom_ops family (13)');
	is( qry(
			$db, "SELECT count(*) FROM pg_depend WHERE classid = 'pg_opfamily'::regclass AND deptype = 'e'
                  AND objid = (SELECT oid FROM pg_opfamily WHERE opfname = 'ulid_bloom_ops')"),
		'0',
		'the foreign ulid_bloom_ops stays outside the extension (13)');
}

$node->stop;
note 'upgrade_paths took ' . (time - $started) . ' s';
done_testing();
