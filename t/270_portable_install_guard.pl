# The portable edition's install guard (portable/ulid_portable.sql) against a planted schema, on a
# server of its own:
#   - the attack: a role with only CREATE on the database makes schema ulid_portable and a function
#     ulid_portable.gen_random_ulid() in it; a superuser runs the script. Before 0.2.1 the script
#     went through (the schema and that function stayed the attacker's), and the attacker's rewrite
#     of the function made the attacker superuser at the superuser's next call — shown here with
#     the script of tag v0.2.0, so that the set-up is known to reproduce the hole. Now the script
#     refuses with 42501, and nothing in the schema changes;
#   - the same as a role that is a member of the owner's role (not a superuser): refused;
#   - a schema the installer owns, holding a function another role planted with a grant on it:
#     refused (42501 naming that function), and the whole script rolled back;
#   - the installer's own schema: installs, twice;
#   - no role attribute or membership changed by anything above (except the reproduction, which is
#     undone and checked).
#
# The reproduction is skipped (with the reason) where the tag v0.2.0 is not reachable from the tree
# (a checkout without its tags).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(getcwd);
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started  = time;
my $tree     = getcwd();
my $work     = PostgreSQL::Test::Utils::tempdir;
my $portable = 'portable/ulid_portable.sql';
my $su       = getpwuid($<);    # the bootstrap superuser: the OS user that ran initdb
my $mallory  = 'portable_mallory';
my $dba      = 'portable_dba';
my $owner    = 'portable_owner';

my $node = PostgreSQL::Test::Cluster->new('guard');
$node->init;
$node->start;

# su(DB, SQL): as the superuser
sub su
{
	return node_as($node, $su, @_);
}

# install(ROLE, DB [, SCRIPT]): the portable script (or SCRIPT) run as ROLE; its ERROR and DETAIL
# lines (each cut to 400 characters), '' when it went through; psql's whole error text when it
# failed without an ERROR line
sub install
{
	my ($role, $db, $script) = @_;
	my ($rc, $out, $err) = node_psql_as($node, $role, $db, undef, $script // $portable);
	my @lines =
	  map { substr($_, 0, 400) }
	  grep { /^(psql:[^ ]* )?(ERROR|DETAIL):/ } split /\n/, $err;
	return join("\n", @lines) if @lines || $rc == 0;
	return "psql exit status $rc: $err";
}

my $roles_sql = q{
SELECT string_agg(format('%s %s%s%s%s%s%s', rolname, rolsuper, rolcreaterole, rolcreatedb,
                         rolreplication, rolbypassrls, rolinherit), ', ' ORDER BY rolname)
    || ' | ' || (SELECT coalesce(string_agg(roleid::regrole || '>' || member::regrole, ', '
                                            ORDER BY roleid::regrole::text, member::regrole::text), '')
                 FROM pg_auth_members)
  FROM pg_roles};

# plant(DB): as mallory, schema ulid_portable with mallory's gen_random_ulid()
sub plant
{
	return node_as_ok(
		$node, $mallory, $_[0],
		"CREATE SCHEMA ulid_portable;
         CREATE FUNCTION ulid_portable.gen_random_ulid() RETURNS uuid LANGUAGE sql AS 'SELECT pg_catalog.gen_random_uuid()'"
	);
}

# the attacker's rewrite: at a superuser's call, make mallory superuser
my $trap =
  "CREATE OR REPLACE FUNCTION ulid_portable.gen_random_ulid() RETURNS uuid LANGUAGE plpgsql AS \$t\$
BEGIN
    IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
        EXECUTE 'ALTER ROLE $mallory SUPERUSER';
    END IF;
    RETURN pg_catalog.gen_random_uuid();
END \$t\$";

note su('postgres', 'SELECT version()');
must(
	node_as_ok(
		$node, $su, 'postgres',
		"CREATE ROLE $mallory LOGIN NOSUPERUSER;
         CREATE ROLE $owner LOGIN NOSUPERUSER;
         CREATE ROLE $dba LOGIN NOSUPERUSER IN ROLE $mallory;
         GRANT CREATE ON DATABASE postgres TO $mallory, $owner, $dba"),
	'roles: mallory and an installer with CREATE on the database only, a dba who is a member of mallory'
);
my $roles_before = su('postgres', $roles_sql);

note 'the reproduction: the script of tag v0.2.0 hands the planted schema to a superuser';
SKIP:
{
	my ($rc, $old) = run_cmd('git', '-C', $tree, 'show', 'v0.2.0:portable/ulid_portable.sql');
	skip 'no tag v0.2.0 reachable from this tree (git show: '
	  . (split /\n/, $old)[0]
	  . '): the reproduction with the old script is not run', 3
	  if $rc != 0;
	PostgreSQL::Test::Utils::append_to_file("$work/old.sql", $old);
	su('postgres', "CREATE DATABASE old; GRANT CREATE ON DATABASE old TO $mallory");
	plant('old');
	is(install($su, 'old', "$work/old.sql"),
		'', 'v0.2.0\'s script runs as a superuser in mallory\'s schema');
	is( su( 'old',
			"SELECT n.nspowner::regrole || ' ' || p.proowner::regrole FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
              WHERE n.nspname = 'ulid_portable' AND p.proname = 'gen_random_ulid'"),
		"$mallory $mallory",
		'... and mallory still owns the schema and gen_random_ulid()');
	node_as($node, $mallory, 'old', $trap);
	su('old', 'SELECT ulid_portable.gen_random_ulid()');
	is(su('postgres', "SELECT rolsuper FROM pg_roles WHERE rolname = '$mallory'"),
		't', '... so the superuser\'s next call makes mallory superuser (the hole)');
	su('postgres', "ALTER ROLE $mallory NOSUPERUSER");
	su('postgres', 'DROP DATABASE old');
}

note 'the attack against this script';
plant('postgres');
my $src_before = su('postgres',
	"SELECT md5(prosrc) FROM pg_proc WHERE proname = 'gen_random_ulid' AND pronamespace = 'ulid_portable'::regnamespace"
);
my $err = install($su, 'postgres');
like(
	$err,
	qr/\QERROR:  42501: schema ulid_portable exists and is not owned by the installing role\E/,
	'as a superuser: refused with 42501');
like($err, qr/\QIt is owned by $mallory\E/, '... naming the owner');
like(
	install($dba, 'postgres'),
	qr/\QERROR:  42501: schema ulid_portable exists and is not owned by the installing role\E/,
	'as a member of the owner\'s role: refused with 42501');
is( su( 'postgres',
		"SELECT count(*) || ' ' || string_agg(proowner::regrole::text, ',') || ' ' || string_agg(md5(prosrc), ',')
           FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace"),
	"1 $mallory $src_before",
	'nothing created or replaced in mallory\'s schema');
node_as($node, $mallory, 'postgres', $trap);
is(su('postgres', "SELECT rolsuper FROM pg_roles WHERE rolname = '$mallory'"),
	'f', 'mallory is still not a superuser');
su('postgres', 'DROP SCHEMA ulid_portable CASCADE');

note 'the installer\'s own schema, with an object another role planted in it';
must(
	node_as_ok(
		$node, $owner, 'postgres',
		"CREATE SCHEMA ulid_portable; GRANT USAGE, CREATE ON SCHEMA ulid_portable TO $mallory"),
	'owner\'s schema, CREATE on it granted to mallory, mallory\'s ulid_encode(text) inside');
node_as($node, $mallory, 'postgres',
	"CREATE FUNCTION ulid_portable.ulid_encode(text) RETURNS text LANGUAGE sql AS 'SELECT ''x'''");
$err = install($owner, 'postgres');
like(
	$err,
	qr/\QERROR:  42501: schema ulid_portable holds objects that the installing role does not own\E/,
	'refused with 42501');
like(
	$err,
	qr/\Qfunction ulid_portable.ulid_encode(text) (owner $mallory)\E/,
	'... naming the planted function and its owner');
is( su( 'postgres',
		"SELECT count(*) FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace AND proowner = '$owner'::regrole"
	),
	'0',
	'... and the whole script rolled back (no function of the installer)');
like(
	install($su, 'postgres'),
	qr/\QERROR:  42501: schema ulid_portable exists and is not owned by the installing role\E/,
	'a superuser in the owner\'s schema: refused too (not the owner)');
su('postgres', 'DROP FUNCTION ulid_portable.ulid_encode(text)');

note 'the installer\'s own schema';
is(install($owner, 'postgres'), '', 'installs');
is(install($owner, 'postgres'), '', 'installs again (re-runnable)');
is( su( 'postgres',
		"SELECT count(*) FILTER (WHERE proowner <> '$owner'::regrole) || '/' || (count(*) > 10)::text
           FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace"),
	'0/true',
	'every object in the schema is the installer\'s');
is( su( 'postgres',
		"SELECT ulid_portable.ulid_encode(ulid_portable.ulid_decode('01ARZ3NDEKTSV4RRFFQ69G5FAV'))"
	),
	'01ARZ3NDEKTSV4RRFFQ69G5FAV',
	'and works');

is(su('postgres', $roles_sql), $roles_before, 'no role attribute or membership changed');

note 'portable_install_guard took ' . (time - $started) . ' s';
done_testing();
