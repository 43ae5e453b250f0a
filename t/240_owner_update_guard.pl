# Owner-driven updates: the owner of a trusted install (an ordinary role that owns the database)
# prepares the catalog so that the update scripts, which run as the bootstrap superuser, skip the
# extension's objects or adopt the owner's. Every update whose target is the default version (0.3.1
# or later) and the refresh round trip refuse, roll back, and leave the catalog as it was.
#
# The owner's moves, each alone and together ("variants"):
#   decoy      a function of its own named ulid_uuid_cmp (another signature), added to the
#              extension with ALTER EXTENSION ADD: the 0.3.0 body's by-name probe then skips
#              every object of 0.3.0;
#   operators  five SQL-function operators < <= = >= > on (ulid, uuid) in the extension's schema:
#              with the decoy, the 0.3.0 body puts them into the extension's BRIN families;
#   timeops    (for updates into 0.4.0 and later) an operator >= on (ulid, timestamptz) there, where
#              the 0.4.0 body makes its own: the update fails on it (42723), adopts nothing.
# For each target from 0.3.1 on and each release older than it, and for the refresh round trip on
# the default version, and with the update run by the owner and by a superuser: the update is
# refused (its SQLSTATE is checked: 42710 from the default version's check where the bodies before
# it went through, the error of the statement that stopped otherwise), extversion and the catalog
# description (test/lib/ulid_describe.sql, with the operator families' entries) are unchanged, and
# no operator of the owner is in a family. Where a release from 0.3.0 on is installed (its
# cross-type operators are the extension's), the owner cannot plant the operators at all (42723).
# Then the attack of the released 0.2.1 -> 0.3.0 script is shown to work (why docs/security.md says
# UPDATE TO '0.3.0' stays unsafe there), the update to the default version refuses that database
# naming the foreign members, and the documented repair
# (test/suites/recipes/repair_foreign_members.sql) brings it to the default version with the
# catalog of a fresh install. On 18+ the 0.2.1 body's skip-support probe with a decoy
# ulid_skipsupport(integer) fails loudly instead of adopting (42883); before 18 those checks are
# skipped (no b-tree skip support there).
#
# The updates into the older targets (0.3.1 up to the release before the default) run on 13, 14,
# 18 and 19: their released scripts never change, and what they do depends on the major only
# through their gates at 14 and 18, whose both sides those majors hold (and 19 is the next). On
# 15, 16 and 17 the targets are the default version alone (every release into it, the refresh
# round trip); ULID_FULL_PASS=1 runs every target on every major.
#
# One node of its own: the bootstrap superuser and the owner ulid_oug_owner; each case a database
# of its own made from template0 and owned by the owner, dropped after it, its steps (install and
# plant, the state, the update, the state again) each in a new session as its role, all in one psql
# process (\connect). The releases are the install scripts ulid--V.sql installed for the server
# under test (this tree's: scripts/test installs it before the TAP suites; the run ends when the
# default version of this tree's ulid.control is not installed there).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started = time;
my $su      = getpwuid($<);        # the bootstrap superuser: the OS user that ran initdb
my $owner   = 'ulid_oug_owner';

# vcmp(A, B): the order of two release versions (x.y.z)
sub vcmp
{
	my @a = split /\./, $_[0];
	my @b = split /\./, $_[1];
	for my $i (0 .. 2)
	{
		my $c = ($a[$i] // 0) <=> ($b[$i] // 0);
		return $c if $c;
	}
	return 0;
}

my ($default) = slurp_file('ulid.control') =~ /^\s*default_version\s*=\s*'([^']+)'/m;
BAIL_OUT('ulid.control: no default_version') unless defined $default;
my $refresh = "$default+refresh";

# the releases older than the default version: the install scripts installed for this server
my $extdir = pg_config_value('--sharedir') . '/extension';
must(-f "$extdir/ulid--$default.sql",
	"this tree's default version $default is installed for the server ($extdir)");
my @older = sort { vcmp($a, $b) } grep { !/--/ && $_ ne $default }
  map { m{/ulid--(.*)\.sql$} ? $1 : () } glob("$extdir/ulid--*.sql");
my $DESCRIBE_SQL = slurp_file('test/lib/ulid_describe.sql');

my $node = PostgreSQL::Test::Cluster->new('oug');
$node->init;
$node->start;
my $server_num = $node->safe_psql('postgres', 'SHOW server_version_num');
note "default version $default; older releases: @older; server $server_num";
must(
	$node->psql('postgres',
		"CREATE ROLE $owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE") == 0,
	"the owner role $owner");

# run_as(ROLE, DB, SQL [, PSQL OPTION...]): psql as ROLE in DB (VERBOSITY verbose, ON_ERROR_STOP):
# its exit status, its output and its error text (without psql's "psql:<stdin>:N: " prefixes)
sub run_as
{
	my ($role, $db, $sql, @extra) = @_;
	my ($rc, $out, $err) = $node->psql(
		$db, $sql,
		extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose', @extra ]);
	$err =~ s/^psql:[^:\n]*:\d+: //mg;
	return ($rc, $out, $err);
}

# step(ROLE, DB, SQL, WHAT): a set-up step of a case; true when it ran, else a failed check WHAT
# (the error as a diagnostic)
sub step
{
	my ($role, $db, $sql, $what) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my ($rc, $out, $err) = run_as($role, $db, $sql);
	return 1 if $rc == 0;
	fail($what);
	diag($err);
	return 0;
}

# query(ROLE, DB, SQL): the output of SQL as ROLE ('' and the error as a diagnostic on an error)
sub query
{
	my ($role, $db, $sql) = @_;
	my ($rc, $out, $err) = run_as($role, $db, $sql);
	diag("$role in $db: $err") if $rc != 0;
	return $rc == 0 ? $out : '';
}

# error_of(ROLE, DB, SQL): the error text of SQL as ROLE ('' when it went through)
sub error_of
{
	my ($role, $db, $sql) = @_;
	my ($rc, $out, $err) = run_as($role, $db, $sql);
	return $rc == 0 ? '' : $err;
}

# fresh_db(): a new database owned by the owner (so that it may install the trusted extension);
# FILE_COPY from 15 on: a copy of template0's files is quicker than WAL_LOG's for this many
# databases (about 120)
my $dbs = 0;
my $strategy = $server_num >= 150000 ? ' STRATEGY = FILE_COPY' : '';

sub create_db_sql
{
	my ($db) = @_;
	return "CREATE DATABASE $db OWNER $owner TEMPLATE template0$strategy";
}

sub fresh_db
{
	my $db = 'oug_' . ++$dbs;
	step($su, 'postgres', create_db_sql($db), "database $db") or return undef;
	return $db;
}

# session(STEP...): the steps, each [ROLE, DB, SQL], in one psql process, each in a connection of
# its own as ROLE to DB (\connect: a new session, as a psql of its own would be), ON_ERROR_STOP off;
# for each step [its output, its error text] (psql's "psql:<stdin>:N: " prefixes removed). One
# process per case instead of five: this suite runs about 120 cases.
sub session
{
	my (@steps) = @_;
	my $script = '';
	for my $i (0 .. $#steps)
	{
		my ($role, $db, $sql) = @{ $steps[$i] };
		$script .= "\\connect $db $role\n$sql\n;\n\\echo ==step $i==\n\\warn ==step $i==\n";
	}
	my ($rc, $out, $err) = $node->psql(
		'postgres', $script,
		on_error_stop => 0,
		extra_params  => [ '-v', 'VERBOSITY=verbose' ]);
	$err =~ s/^psql:[^:\n]*:\d+: //mg;
	my @outs = split /^==step \d+==\n?/m, "$out\n";
	my @errs = split /^==step \d+==\n?/m, "$err\n";
	my @res;
	for my $i (0 .. $#steps)
	{
		my ($o, $e) = ($outs[$i] // '', $errs[$i] // '');
		s/\n\z// for $o, $e;
		push @res, [ $o, $e ];
	}
	return @res;
}

# failed(ERROR TEXT): true when a step's error text holds an error
sub failed
{
	return $_[0] =~ /^(ERROR|FATAL|PANIC):|error:/m;
}

# the catalog description, the version and the owner's operators in the families
my $STATE_SQL = "$DESCRIBE_SQL
SELECT 'extversion ' || extversion FROM pg_extension WHERE extname = 'ulid';
SELECT 'foreign family entries ' || count(*) FROM pg_amop a JOIN pg_operator o ON o.oid = a.amopopr
WHERE o.oprowner = '$owner'::regrole;";

# unchanged(BEFORE, AFTER, NAME): a check that two states are the same (the lines that differ as a
# diagnostic otherwise)
sub unchanged
{
	my ($before, $after, $name) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	return 1 if ok($before eq $after, $name);
	my %b = map { $_ => 1 } split /\n/, $before;
	my %a = map { $_ => 1 } split /\n/, $after;
	my @diff = ((map { "- $_" } grep { !$a{$_} } split /\n/, $before),
		(map { "+ $_" } grep { !$b{$_} } split /\n/, $after));
	diag(join("\n", @diff[ 0 .. ($#diff < 19 ? $#diff : 19) ]));
	return 0;
}

my $PLANT_DECOY =
  "CREATE FUNCTION public.ulid_uuid_cmp(integer) RETURNS integer LANGUAGE sql AS 'SELECT 0';
ALTER EXTENSION ulid ADD FUNCTION public.ulid_uuid_cmp(integer);\n";
my $PLANT_OPERATORS =
  "CREATE FUNCTION public.owner_says_yes(public.ulid, uuid) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.< (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);
CREATE OPERATOR public.<= (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);
CREATE OPERATOR public.= (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);
CREATE OPERATOR public.>= (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);
CREATE OPERATOR public.> (LEFTARG = public.ulid, RIGHTARG = uuid, FUNCTION = public.owner_says_yes);\n";

# 0.4.0's operators of ulid and timestamptz, planted before the update that makes them
my $PLANT_TIME_OPERATORS =
  "CREATE FUNCTION public.owner_says_later(public.ulid, timestamptz) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.>= (LEFTARG = public.ulid, RIGHTARG = timestamptz, FUNCTION = public.owner_says_later);\n";
my %PLANT = (
	decoy     => $PLANT_DECOY,
	operators => $PLANT_OPERATORS,
	both      => $PLANT_DECOY . $PLANT_OPERATORS,
	timeops   => $PLANT_TIME_OPERATORS);

# install(FROM): the owner's CREATE EXTENSION of release FROM (the default version for the refresh)
sub install
{
	my ($from) = @_;
	return $from eq $refresh
	  ? "CREATE EXTENSION ulid;\n"
	  : "CREATE EXTENSION ulid VERSION '$from';\n";
}

# update_refused(FROM, VARIANT, UPDATER, STEP, WANT): install FROM as the owner, plant VARIANT, run
# STEP as UPDATER (owner or superuser): refused with WANT (a SQLSTATE), nothing changed
sub update_refused
{
	my ($from, $variant, $updater, $stmt, $want) = @_;
	my $case = "from $from, $variant, updated by the $updater";
	my $db   = 'oug_' . ++$dbs;
	my ($create, $plant, $before, $update, $after) = session(
		[ $su, 'postgres', create_db_sql($db) ],
		[ $owner, $db, install($from) . $PLANT{$variant} ],
		[ $su, $db, $STATE_SQL ],
		[ $updater eq 'owner' ? $owner : $su, $db, "$stmt;" ],
		[ $su, $db, $STATE_SQL ],
		[ $su, 'postgres', "DROP DATABASE $db" ]);
	for ([ $create, "database $db" ],
		[ $plant, "from $from, $variant: the owner installs it and plants" ],
		[ $before, "$case: the state before" ],
		[ $after, "$case: the state after" ])
	{
		my ($res, $what) = @$_;
		next
		  unless failed($res->[1])
		  || ($what =~ /the state/ && $res->[0] !~ /^extversion /m);
		fail($what);
		diag($res->[1]);
		return;
	}
	my $err = $update->[1];
	my ($got) = $err =~ /^ERROR:  ([0-9A-Z]{5}): /m;
	if (!failed($err))
	{
		fail("$case: refused with $want");
		diag("'$stmt' went through");
	}
	else
	{
		is($got, $want, "$case: refused with $want") or diag($err);
	}
	unchanged($before->[0], $after->[0], "$case: version, catalog and families unchanged");
	if ($variant eq 'both' && $want eq '42710')
	{
		like(
			$err,
			qr/\Qfunction ulid_uuid_cmp(integer) is a member of extension ulid but is owned by $owner\E/,
			"from $from, both, $updater: the error names the foreign member");
		like(
			$err,
			qr/operator [0-9] \(ulid, uuid\) of operator family ulid_minmax_ops for access method brin: [<=>]+\(ulid,uuid\) is owned by $owner/,
			"from $from, both, $updater: the error names the owner's operators");
	}
	return;
}

# cannot_plant(FROM, PLANT, ERROR, NAME): with FROM installed, the owner's PLANT fails with ERROR
sub cannot_plant
{
	my ($from, $plant, $error, $name) = @_;
	my $db = 'oug_' . ++$dbs;
	my ($create, $planted) = session(
		[ $su, 'postgres', create_db_sql($db) ],
		[ $owner, $db, install($from) . $plant ],
		[ $su, 'postgres', "DROP DATABASE $db" ]);
	like($planted->[1], qr/^\QERROR:  $error\E/m, $name) or diag($create->[1]);
	return;
}

# cannot_plant_operators(FROM): with FROM installed (the cross-type operators are the extension's),
# the owner's CREATE OPERATOR of their signatures in the extension's schema fails
sub cannot_plant_operators
{
	my ($from) = @_;
	cannot_plant($from, $PLANT_OPERATORS, '42723: operator < already exists',
		"from $from: the owner cannot plant operators of the extension's signatures (operators, both)"
	);
	return;
}

note "owner-driven updates into $default";
# every target from 0.3.1 on (the releases whose scripts end with the check), from every release
# before it; the default version alone on the majors between the scripts' gates (above)
my $major = int($server_num / 10000);
my $every_target =
     ($ENV{ULID_FULL_PASS} // '') eq '1'
  || $major <= 14
  || $major >= 18;
my @targets =
  $every_target
  ? (grep { vcmp($_, '0.3.1') >= 0 } @older, $default)
  : ($default);
note "targets: @targets"
  . ($every_target ? '' : ' (the older targets run on 13, 14, 18 and 19)');
for my $target (@targets)
{
	for my $from (grep { vcmp($_, $target) < 0 } @older)
	{
		for my $variant (qw(decoy operators both))
		{
			# what stops each: a release before 0.3.0 lacks the cross-type objects, so the 0.3.0
			# body makes them (the owner's operators are in the way: 42723) or skips them for the
			# decoy (then adding the missing operators to the BRIN families fails: 42883), unless
			# both steer it past, where the 0.3.1 check refuses (42710); from 0.3.0 on the objects
			# exist and the check finds the foreign member
			my $want = '42710';
			if (vcmp($from, '0.3.0') < 0)
			{
				$want = '42883' if $variant eq 'decoy';
				$want = '42723' if $variant eq 'operators';
			}
			elsif ($variant ne 'decoy')
			{
				# the operators exist (the extension's): the owner cannot plant them in its schema
				cannot_plant_operators($from) if $target eq $default;
				next;
			}
			for my $updater (qw(owner superuser))
			{
				update_refused($from, $variant, $updater,
					"ALTER EXTENSION ulid UPDATE TO '$target'", $want);
			}
		}
	}
}

note 'the operators of ulid and timestamptz (0.4.0), planted before the update that makes them';
if (vcmp('0.4.0', $default) <= 0)
{
	for my $from (grep { vcmp($_, '0.4.0') < 0 } @older)
	{
		for my $updater (qw(owner superuser))
		{
			update_refused($from, 'timeops', $updater,
				"ALTER EXTENSION ulid UPDATE TO '$default'", '42723');
		}
	}
	cannot_plant($refresh, $PLANT_TIME_OPERATORS, '42723: operator >= already exists',
		"on $default: the owner cannot plant an operator >= (ulid, timestamptz) in its schema");
}

note "the refresh round trip on $default";
for my $updater (qw(owner superuser))
{
	update_refused($refresh, 'decoy', $updater, "ALTER EXTENSION ulid UPDATE TO '$refresh'",
		'42710');
}
cannot_plant_operators($refresh);

note 'a database that took the steered update to 0.3.0, and its repair';
my $FOREIGN_SQL =
  "SELECT count(*) FROM pg_amop a JOIN pg_operator o ON o.oid = a.amopopr WHERE o.oprowner = '$owner'::regrole";
if (!-f "$extdir/ulid--0.2.1--0.3.0.sql")
{
	fail('no ulid--0.2.1--0.3.0.sql: the released update to 0.3.0 is missing');
}
elsif (my $db = fresh_db())
{
	if (step(
			$owner, $db,
			"CREATE EXTENSION ulid VERSION '0.2.1';\n$PLANT_DECOY$PLANT_OPERATORS",
			'steered: the owner installs 0.2.1 and plants the decoy and the operators'))
	{
		ok(error_of($owner, $db, "ALTER EXTENSION ulid UPDATE TO '0.3.0'") eq '',
			"the released 0.2.1 -> 0.3.0 script takes the owner's bait (documented as unsafe)");
		my $n = query($su, $db, $FOREIGN_SQL);
		note "the owner's operators in the extension's families after it: $n";
		cmp_num($n, '>', 0, 'the steered 0.3.0 holds operators of the owner in its families');
		my $before = query($su, $db, $STATE_SQL);
		my $err = error_of($su, $db, "ALTER EXTENSION ulid UPDATE TO '$default'");
		like(
			$err,
			qr/^ERROR:  42710: extension ulid is not as its scripts made it: function ulid_uuid_cmp\(integer\) is a member of extension ulid but is owned by $owner/m,
			"the update of the steered database to $default is refused (42710)");
		my $named = grep { index($_,
					"is owned by $owner (its function owner_says_yes(ulid,uuid) by $owner)") >= 0 }
		  split /\n/, $err;
		cmp_num($named, '==', $n,
			"the refusal names each of the owner's operators in the families");
		unchanged($before, query($su, $db, $STATE_SQL), 'the refusal changed nothing');
		my ($rc, $out, $rerr) =
		  run_as($su, $db, '', '-f', 'test/suites/recipes/repair_foreign_members.sql');
		ok($rc == 0, 'the documented repair (recipes/repair_foreign_members.sql) ran')
		  or diag($rerr);
		is(query($su, $db, "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"),
			$default, 'extversion after the repair');
		my $fresh = fresh_db();
		my $want =
		  $fresh && step($owner, $fresh, 'CREATE EXTENSION ulid', 'a fresh install')
		  ? query($su, $fresh, $DESCRIBE_SQL)
		  : 'no fresh install';
		unchanged($want, query($su, $db, $DESCRIBE_SQL),
			"the repaired catalog is a fresh $default install's");
		is( query(
				$su, $db,
				"SELECT count(*) FROM pg_proc p WHERE p.oid = 'public.ulid_uuid_cmp(integer)'::regprocedure
                 AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')"),
			'1',
			"the owner's decoy is the owner's own object again, outside the extension");
	}
}

note "the 0.2.1 body's skip-support probe";
SKIP:
{
	skip 'PostgreSQL before 18 has no b-tree skip support: '
	  . "the 0.2.1 body's skip-support probe does not run here", 4
	  if $server_num < 180000;
	my $db = fresh_db() or skip 'no database', 4;
	step($owner, $db, "CREATE EXTENSION ulid VERSION '0.2.0'",
		'skip support: the owner installs 0.2.0')
	  or skip 'no 0.2.0', 4;
	# as after pg_upgrade from an older major: no skip support (a superuser's step)
	step(
		$su, $db,
		"ALTER OPERATOR FAMILY ulid_ops USING btree DROP FUNCTION 6 (ulid, ulid);
         ALTER EXTENSION ulid DROP FUNCTION ulid_skipsupport(internal); DROP FUNCTION ulid_skipsupport(internal)",
		'skip support: the superuser drops it')
	  or skip 'skip support not dropped', 4;
	step(
		$owner, $db,
		"CREATE FUNCTION public.ulid_skipsupport(integer) RETURNS void LANGUAGE sql AS '';
         ALTER EXTENSION ulid ADD FUNCTION public.ulid_skipsupport(integer)",
		'skip support: the owner plants a decoy ulid_skipsupport(integer)')
	  or skip 'no decoy', 4;
	like(
		error_of(
			$owner, $db,
			"CREATE FUNCTION public.ulid_skipsupport(internal) RETURNS void LANGUAGE sql AS ''"),
		qr/^ERROR:  42P13: SQL functions cannot have arguments of type internal/m,
		'the owner cannot create a function taking internal');
	my $before = query($su, $db, $STATE_SQL);
	for my $target ('0.2.1', $default)
	{
		like(
			error_of($owner, $db, "ALTER EXTENSION ulid UPDATE TO '$target'"),
			qr/^ERROR:  42883: function ulid_skipsupport\(internal\) does not exist/m,
			"update to $target with a decoy ulid_skipsupport(integer): fails loudly (42883), adopts nothing"
		);
	}
	unchanged($before, query($su, $db, $STATE_SQL), 'skip-support decoy: nothing changed');
}

$node->stop;
note 'owner_update_guard took ' . (time - $started) . ' s';
done_testing();
