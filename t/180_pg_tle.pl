# The portable edition as the pg_tle extension ulid_portable (portable/ulid_portable_tle.sql), on a
# server of its own that preloads pg_tle, run as managed services run it: the superuser only
# creates pg_tle and grants pgtle_admin; a role "admin" (pgtle_admin, CREATE on the database, not a
# superuser) registers and creates; a role "app" has nothing but USAGE on the schema and TEMP.
#
#   - registering: without pg_tle (0A000) and without pgtle_admin (42501) it is refused; the
#     versions 0.5.0 and the current one, the update between them, the current one the default,
#     pgcrypto required; run again it changes nothing; a registration of the name with another
#     description, or of a version with another text, is refused (55000); the 0.5.0 that the file
#     registers is the release v0.5.0's loose file less its BEGIN and COMMIT lines;
#   - CREATE EXTENSION: without pgcrypto it is refused, CASCADE makes it; the functions are the
#     loose file's, definition for definition; app uses them; the loose file then refuses (55000);
#   - ALTER EXTENSION ulid_portable UPDATE from 0.5.0 gives the functions of a new install of the
#     current version; DROP EXTENSION is refused while a table's default needs gen_ulid() and
#     removes the schema with CASCADE, the table kept;
#   - pg_dump and restore: by a superuser, and by admin where the superuser created pg_tle first
#     (two errors, both expected); a restore gets the default version the dump registers;
#   - adopting a loose installation with CREATE EXTENSION: the functions become members, the table
#     that uses gen_ulid() is not rewritten; refused, with nothing changed, when a function's body
#     differs, one is missing or extra, the schema holds a table, or the schema or a function is
#     owned by another role;
#   - from the extension to the native type and back, with ALTER TABLE ... TYPE: no rewrite;
#   - the differential checks of the portable edition against the native extension
#     (t/lib/PortableDifferential.pm, which t/260_portable_differential.pl runs against the loose
#     file), here against the extension: the installer in pgtle_admin, pgcrypto created before the
#     extension (so the check without pgcrypto is the CREATE EXTENSION refusal above), a re-run is
#     the registration again and ALTER EXTENSION ... UPDATE.
# The whole file is skipped (plan skip_all, with the reason) where pg_tle is not installed for the
# server: scripts/build/pgtle-build MAJOR builds it, scripts/pins/pgtle-version says for which majors.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(getcwd);
use IPC::Run;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;
use PortableDifferential;

my $started = time;
my $tree    = getcwd();
my $work    = PostgreSQL::Test::Utils::tempdir;
my $tle     = 'portable/ulid_portable_tle.sql';
my $loose   = 'portable/ulid_portable.sql';
my $su      = getpwuid($<);    # the bootstrap superuser: the OS user that ran initdb

my $sharedir = pg_config_value('--sharedir');
unless (-f pg_config_value('--pkglibdir') . '/pg_tle.so'
	&& -f "$sharedir/extension/pg_tle.control")
{
	plan skip_all => 'pg_tle is not installed for '
	  . pg_config_value('--version')
	  . ' (scripts/build/pgtle-build MAJOR builds it from the shared sources, for the majors '
	  . 'scripts/pins/pgtle-version names)';
}

# the current version, from the loose file's second line
my ($current) =
  slurp_file($loose) =~ /\A[^\n]*\n-- Version ([0-9.]+) of the portable edition/;
BAIL_OUT("$loose: no version on its second line") unless defined $current;

my $node = PostgreSQL::Test::Cluster->new('tle');
# UTF8 whatever the environment's locale: the differential checks' bad strings are multibyte
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf(
	'postgresql.conf', qq(
shared_preload_libraries = 'pg_tle'
));

# psql_run(ROLE, DB, SQL, FILE), as(ROLE, DB, SQL), as_ok(ROLE, DB, SQL): UlidTest's node_psql_as,
# node_as and node_as_ok on this node
sub psql_run { return node_psql_as($node, @_); }
sub as       { return node_as($node, @_); }
sub as_ok    { return node_as_ok($node, @_); }

# su(DB, SQL): as the superuser
sub su
{
	return as($su, @_);
}

# file_ok(ROLE, DB, FILE): true when psql -f FILE ran as ROLE without an error
sub file_ok
{
	my ($role, $db, $file) = @_;
	my ($rc, $out, $err) = psql_run($role, $db, undef, $file);
	diag("$role in $db, $file: $err") if $rc != 0;
	return $rc == 0;
}

# file_all(ROLE, DB, FILE): the output and the error text of psql -f FILE as ROLE
sub file_all
{
	my ($role, $db, $file) = @_;
	my ($rc, $out, $err) = psql_run($role, $db, undef, $file);
	return "$out\n$err";
}

# first_error(TEXT): "SQLSTATE message" of the first ERROR in psql's error text, or 'no error'
sub first_error
{
	my ($text) = @_;
	return $text =~ /ERROR:  ([0-9A-Z]{5}): ([^\n]*)/ ? "$1 $2" : 'no error';
}

# err(ROLE, DB, SQL): first_error of SQL as ROLE
sub err
{
	my ($role, $db, $sql) = @_;
	my ($rc, $out, $text) = psql_run($role, $db, $sql);
	return $rc == 0 ? 'no error' : first_error($text);
}

# defs(DB): every function of the schema ulid_portable with a digest of its definition, and the
# schema's comment
sub defs
{
	return su(
		$_[0], "SELECT p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid)) FROM pg_proc p
                   WHERE pronamespace = 'ulid_portable'::regnamespace ORDER BY 1;
                 SELECT obj_description('ulid_portable'::regnamespace, 'pg_namespace')");
}

# new_db(NAME): a database of the superuser's where admin has CREATE, a schema app of admin's, and
# the superuser's part of pg_tle (recipes/pg_tle_enable.sql: pg_tle, pgtle_admin granted to admin)
sub new_db
{
	my ($db) = @_;
	return
		 as_ok($su, 'postgres', "CREATE DATABASE $db")
	  && as_ok($su, 'postgres', "GRANT CREATE ON DATABASE $db TO admin")
	  && file_ok($su, $db, 'test/suites/recipes/pg_tle_enable.sql')
	  && as_ok($su, $db, 'CREATE SCHEMA app AUTHORIZATION admin');
}

# recipe(FILE, DB): the recipe FILE of test/suites/recipes/ as admin, APP_DB naming DB
sub recipe
{
	my ($file, $db) = @_;
	local $ENV{APP_DB} =
	  'host=' . $node->host . ' port=' . $node->port . " dbname=$db user=admin";
	local $ENV{PGOPTIONS} = '-c client_min_messages=warning';
	my ($rc, $out) = run_cmd('bash', '-euo', 'pipefail', "test/suites/recipes/$file");
	diag($out) if $rc != 0;
	return $rc == 0;
}

sub register
{
	return file_ok('admin', $_[0], $tle);
}

must($node->start(fail_ok => 1), 'server starts (shared_preload_libraries = pg_tle)');
note su('postgres', 'SELECT version()');
must(
	as_ok(
		$su, 'postgres',
		'CREATE ROLE admin LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
         CREATE ROLE app LOGIN NOSUPERUSER; CREATE ROLE outsider LOGIN NOSUPERUSER'),
	'roles admin, app, outsider');

note 'registering';
must(
	as_ok(
		$su, 'postgres',
		'CREATE DATABASE bare; GRANT CREATE ON DATABASE bare TO admin'),
	'a database without pg_tle');
is(first_error(file_all('admin', 'bare', $tle)),
	'0A000 pg_tle is not installed in this database',
	'without pg_tle in the database: 0A000');
must(new_db('main'), 'database main: pg_tle created by the superuser');
like(first_error(file_all('outsider', 'main', $tle)),
	qr/^42501 /, 'a role without pgtle_admin: refused by pg_tle (42501)');
is(su('postgres', "SELECT rolsuper FROM pg_roles WHERE rolname = 'admin'"),
	'f', 'admin is no superuser');
must(register('main'),
	'admin registers (recipes/portable_tle_install.sh registers and creates; here: the first half)'
);
is( as(
		'admin', 'main',
		"SELECT string_agg(version || ':' || array_to_string(requires, '+'), ' ' ORDER BY version)
           FROM pgtle.available_extension_versions() WHERE name = 'ulid_portable';
         SELECT default_version FROM pgtle.available_extensions() WHERE name = 'ulid_portable';
         SELECT string_agg(source || '>' || target, ' ') FROM pgtle.extension_update_paths('ulid_portable')
          WHERE path IS NOT NULL"),
	"0.5.0:pgcrypto+pg_tle $current:pgcrypto+pg_tle\n$current\n0.5.0>$current",
	'versions, what they require, the default');
{
	my $again = file_all('admin', 'main', $tle);
	my $n     = () = $again =~ /already registered|default version/g;
	is($n, 4, 'run again: every script already registered, the default set again');
}

# the 0.5.0 that the file registers is the loose file of the release v0.5.0 (git's blob of the
# commit scripts/pins/releases names), the text between its dollar quotes
my $v050_commit;
{
	open my $fh, '<', 'scripts/pins/releases' or BAIL_OUT("scripts/pins/releases: $!");
	while (<$fh>)
	{
		my @f = split;
		$v050_commit = $f[1] if @f >= 2 && $f[0] eq '0.5.0';
	}
	close $fh;
	BAIL_OUT('scripts/pins/releases names no commit of 0.5.0') unless $v050_commit;
}
my ($rc_show, $loose050) =
  run_cmd('git', '-C', $tree, 'show', "$v050_commit:portable/ulid_portable.sql");
must($rc_show == 0, "v0.5.0's loose file, from git ($v050_commit)");
PostgreSQL::Test::Utils::append_to_file("$work/loose050.sql", $loose050);
{
	my ($registered) = slurp_file($tle) =~
	  /ulid_portable_register\('install', NULL, '0\.5\.0', \$ulid_tle_0_5_0\$(.*?)\$ulid_tle_0_5_0\$/s;
	# pg_tle runs a script without transaction control: the loose file less its BEGIN and COMMIT
	(my $want = $loose050) =~ s/^(?:BEGIN|COMMIT);\n//mg;
	isnt($want, $loose050, 'v0.5.0\'s loose file has its BEGIN and COMMIT lines');
	is($registered, $want,
		'the 0.5.0 the file registers is v0.5.0\'s loose file less those lines, byte for byte');
}

must(new_db('other'), 'a database where ulid_portable was registered by someone else');
as('admin', 'other',
	"SELECT pgtle.install_extension('ulid_portable', '9.9', 'something else', 'SELECT 1')");
like(
	file_all('admin', 'other', $tle),
	qr/55000: an extension named ulid_portable is registered with pg_tle, and it is not this one/,
	'... with another description: refused (55000)');
as('admin', 'other', "SELECT pgtle.uninstall_extension('ulid_portable')");
{
	my $text = slurp_file($tle);
	my $n    = $text =~
	  s/^(SELECT pg_temp\.ulid_portable_register\('install', NULL, '0\.5\.0', \$ulid_tle_0_5_0\$-- portable)/$1-- changed\n/m;
	is($n, 1, 'a copy of the file with one line of 0.5.0 changed');
	PostgreSQL::Test::Utils::append_to_file("$work/changed.sql", $text);
}
file_all('admin', 'other', "$work/changed.sql");
like(
	file_all('admin', 'other', $tle),
	qr/55000: ulid_portable--0\.5\.0\.sql is registered with pg_tle with another text/,
	'... a version registered with another text: refused (55000)');

note 'CREATE EXTENSION';
like(
	(psql_run('admin', 'main', 'CREATE EXTENSION ulid_portable'))[2],
	qr/required extension "pgcrypto" is not installed/,
	'without pgcrypto and without CASCADE: refused');
must(as_ok('admin', 'main', 'CREATE EXTENSION ulid_portable CASCADE'),
	'CREATE EXTENSION ulid_portable CASCADE, as admin');
is( su( 'main',
		"SELECT string_agg(extname || ' ' || extowner::regrole, ', ' ORDER BY 1) || ' '
             || (SELECT extversion FROM pg_extension WHERE extname = 'ulid_portable')
           FROM pg_extension WHERE extname IN ('pgcrypto', 'ulid_portable')"),
	"pgcrypto admin, ulid_portable admin $current",
	'versions, owner');
must(
	as_ok(
		$su, 'postgres',
		'CREATE DATABASE loose; GRANT CREATE ON DATABASE loose TO admin'),
	'a database for the loose file');
must(file_ok('admin', 'loose', $loose), 'the loose file, as admin');
my $defs_new = defs('main');
is($defs_new, defs('loose'),
	'the extension\'s functions are the loose file\'s (definitions, schema comment)');
is(scalar(split /\n/, $defs_new), 18, '... and there are 17 + the comment');
is( su( 'main',
		"SELECT count(*) FILTER (WHERE e.extname IS DISTINCT FROM 'ulid_portable') || ' ' || count(*)
           FROM (SELECT 'pg_proc'::regclass c, oid o FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace
                 UNION ALL SELECT 'pg_namespace'::regclass, 'ulid_portable'::regnamespace) x
           LEFT JOIN pg_depend d ON d.classid = x.c AND d.objid = x.o AND d.deptype = 'e'
           LEFT JOIN pg_extension e ON e.oid = d.refobjid"),
	'0 18',
	'every function and the schema belong to the extension');
must(as_ok($su, 'main', 'GRANT USAGE ON SCHEMA app TO app'),
	'app: USAGE on schema app only');
my $key = "'\\x000102030405060708090a0b0c0d0e0f'";
is( as( 'app', 'main',
		"SELECT count(DISTINCT ulid_portable.ulid_decode(ulid_portable.ulid_encode(ulid_portable.gen_ulid())))
              + count(DISTINCT ulid_portable.ulid_decrypt(ulid_portable.ulid_encrypt(ulid_portable.gen_random_ulid(),
                                                          $key), $key))
           FROM generate_series(1, 100)"),
	'200',
	'app (no privilege but the schema\'s USAGE and TEMP) generates, encodes, decodes, encrypts');
is( as( 'app', 'main',
		"SELECT ulid_portable.ulid_encrypt('00112233-4455-6677-8899-aabbccddeeff', $key)"),
	'69c4e0d8-6a7b-0430-d8cd-b78070b4c55a',
	'FIPS-197 C.1 through pgcrypto, as app');
is( first_error(file_all('admin', 'main', $loose)) . "\n" . defs('main'),
	"55000 schema ulid_portable belongs to an extension; this file does not change it\n$defs_new",
	'the loose file refuses a schema the extension owns (55000), and changes nothing');

note 'ALTER EXTENSION UPDATE, DROP EXTENSION';
must(new_db('upd') && register('upd'), 'a database at 0.5.0, registered');
must(as_ok('admin', 'upd', "CREATE EXTENSION ulid_portable VERSION '0.5.0' CASCADE"),
	"CREATE EXTENSION ulid_portable VERSION '0.5.0' CASCADE");
must(
	as_ok(
		$su, 'postgres',
		'CREATE DATABASE loose050; GRANT CREATE ON DATABASE loose050 TO admin')
	  && file_ok('admin', 'loose050', "$work/loose050.sql"),
	"v0.5.0's loose file, in a database of its own");
is(defs('upd'), defs('loose050'), "0.5.0 of the extension is v0.5.0's loose file");
must(
	as_ok(
		'admin', 'upd',
		'CREATE TABLE app.t (id uuid PRIMARY KEY DEFAULT ulid_portable.gen_ulid(), n int);
         INSERT INTO app.t (n) SELECT generate_series(1, 100)'),
	'a table whose default calls gen_ulid(), 100 rows');
must(recipe('portable_tle_update.sh', 'upd'),
	'register again and ALTER EXTENSION ulid_portable UPDATE (recipes/portable_tle_update.sh)');
is( su('upd', "SELECT extversion FROM pg_extension WHERE extname = 'ulid_portable'") . "\n"
	  . defs('upd'),
	"$current\n$defs_new",
	"... to $current, with the functions of a new install of $current");
is( as( 'admin', 'upd',
		'INSERT INTO app.t (n) VALUES (101) RETURNING id > ALL (SELECT id FROM app.t WHERE n <= 100)'
	),
	't',
	'... and the default still works');
like(
	(psql_run('admin', 'upd', 'DROP EXTENSION ulid_portable'))[2],
	qr/cannot drop extension ulid_portable because other objects depend on it/,
	'DROP EXTENSION while the table\'s default needs gen_ulid(): refused');
must(as_ok('admin', 'upd', 'DROP EXTENSION ulid_portable CASCADE'),
	'DROP EXTENSION ulid_portable CASCADE');
is( su( 'upd',
		"SELECT count(*) FROM pg_namespace WHERE nspname = 'ulid_portable';
         SELECT count(*) FROM app.t;
         SELECT count(*) FROM pg_attrdef WHERE adrelid = 'app.t'::regclass"),
	"0\n101\n0",
	'... the schema is gone, the table and its rows kept, the default dropped');

note 'pg_dump and restore';
must(
	new_db('dumped') && register('dumped') && as_ok(
		'admin', 'dumped',
		"CREATE EXTENSION ulid_portable VERSION '0.5.0' CASCADE;
         CREATE TABLE app.t (id uuid PRIMARY KEY DEFAULT ulid_portable.gen_ulid(), n int);
         INSERT INTO app.t (n) SELECT generate_series(1, 100)"),
	"a database at 0.5.0 with a table, the default version $current");
my $su_conn = $node->connstr('dumped') . " user=$su";
must((run_cmd('pg_dump', '-f', "$work/dump.sql", $su_conn))[0] == 0, 'pg_dump');
{
	my $dump = slurp_file("$work/dump.sql");
	my $ext  = () = $dump =~ /^CREATE EXTENSION IF NOT EXISTS ulid_portable WITH SCHEMA/mg;
	my $fns  = () = $dump =~ /^CREATE FUNCTION pgtle\."ulid_portable/mg;
	is("$ext $fns", '1 4',
		'the dump creates the extension without a version, and carries pg_tle\'s copies of the scripts'
	);
}
must(as_ok($su, 'postgres', 'CREATE DATABASE restored_su'),
	'an empty database');
{
	my ($rc, $out, $text) =
	  $node->psql('restored_su', '', extra_params => [ '-f', "$work/dump.sql" ], on_error_stop => 0);
	my $errors = () = $text =~ /ERROR/g;
	is($errors, 0, 'restored by the superuser into an empty database: no error');
}
is( su( 'restored_su',
		"SELECT extversion FROM pg_extension WHERE extname = 'ulid_portable';
         INSERT INTO app.t (n) VALUES (101) RETURNING (SELECT count(*) FROM app.t WHERE n <= 100)"),
	"$current\n100",
	'... it gets the default version, not the one the dumped database had; 100 rows; the default works'
);
must(
	as_ok($su, 'postgres', 'CREATE DATABASE restored OWNER admin')
	  && file_ok($su, 'restored', 'test/suites/recipes/pg_tle_enable.sql'),
	'a database of admin\'s where the superuser created pg_tle');
{
	local $ENV{SOURCE_DB} = $su_conn;
	local $ENV{TARGET_DB} =
	  'host=' . $node->host . ' port=' . $node->port . ' dbname=restored user=admin';
	my $all = '';
	IPC::Run::run([ 'bash', '-euo', 'pipefail', "$tree/test/suites/recipes/portable_tle_restore.sh" ],
		'<', \undef, '>&', \$all, init => sub { chdir $work or die "$work: $!" });
	my @errors = map { s/^psql:[^ ]* //r } grep { /ERROR/ } split /\n/, $all;
	is( join("\n", @errors),
		"ERROR:  schema \"pgtle\" already exists\nERROR:  must be owner of extension pg_tle",
		'restored by admin (recipes/portable_tle_restore.sh) where the superuser created pg_tle: '
		  . 'two errors about pg_tle\'s own objects');
}
is( su( 'restored',
		"SELECT extversion || ' ' || extowner::regrole FROM pg_extension WHERE extname = 'ulid_portable';
         SELECT count(*) FROM app.t")
	  . "\n"
	  . defs('restored'),
	"$current admin\n100\n$defs_new",
	"... the extension (owner admin), the rows, the functions of $current");

note 'adopting a loose installation';

# adopt_db(NAME): a database with v0.5.0's loose file installed by admin and a table using it
sub adopt_db
{
	my ($db) = @_;
	return
		 new_db($db)
	  && file_ok('admin', $db, "$work/loose050.sql")
	  && as_ok(
		'admin', $db,
		'CREATE TABLE app.t (id uuid PRIMARY KEY DEFAULT ulid_portable.gen_ulid(), n int);
         INSERT INTO app.t (n) SELECT generate_series(1, 100)');
}
must(adopt_db('adopt'), 'a database with v0.5.0\'s loose file and a table using gen_ulid()');
my $filenode = su('adopt', "SELECT pg_relation_filenode('app.t')");
must(recipe('portable_tle_adopt.sh', 'adopt'),
	'update the loose file, register, CREATE EXTENSION ulid_portable CASCADE (recipes/portable_tle_adopt.sh)'
);
is( su( 'adopt',
		"SELECT count(*) FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
          WHERE e.extname = 'ulid_portable' AND d.deptype = 'e';
         SELECT pg_relation_filenode('app.t')")
	  . "\n"
	  . defs('adopt'),
	"18\n$filenode\n$defs_new",
	'adopted: the schema and 17 functions are members; definitions as a new install; the table not rewritten'
);
is( as( 'admin', 'adopt',
		'INSERT INTO app.t (n) VALUES (101) RETURNING id > ALL (SELECT id FROM app.t WHERE n <= 100)'
	),
	't',
	'... the default goes on increasing');

# refused_adoption(NAME, ROLE, SETUP, EXPECTED): a loose installation brought to this version and
# registered, SETUP run as ROLE; CREATE EXTENSION refused with EXPECTED, nothing changed
sub refused_adoption
{
	my ($name, $role, $setup, $expected) = @_;
	my $ready =
		 adopt_db($name)
	  && file_ok('admin', $name, $loose)
	  && file_ok('admin', $name, $tle)
	  && as_ok('admin', $name, 'CREATE EXTENSION pgcrypto')
	  && as_ok($su, $name, "SET ROLE $role; $setup");
	ok($ready, "$name: set up");
	my $before = defs($name);
	is(err('admin', $name, 'CREATE EXTENSION ulid_portable'), $expected, "refused: $name");
	is( su($name, "SELECT count(*) FROM pg_extension WHERE extname = 'ulid_portable'") . "\n"
		  . defs($name),
		"0\n$before",
		'... nothing changed (no extension, the same functions)');
	return;
}
my $not_this_version =
  '55000 the loose installation in schema ulid_portable is not this version of the portable edition';
refused_adoption('body_differs', 'admin',
	"CREATE OR REPLACE FUNCTION ulid_portable.ulid_ms(id uuid) RETURNS int8 LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT 0::int8'",
	$not_this_version);
refused_adoption('missing', 'admin', 'DROP FUNCTION ulid_portable.gen_ulid_start(int8)',
	$not_this_version);
refused_adoption('extra', 'admin',
	"CREATE FUNCTION ulid_portable.mine() RETURNS int LANGUAGE sql AS 'SELECT 1'",
	$not_this_version);
refused_adoption('holds_table', 'admin',
	'CREATE TABLE ulid_portable.keep_me (x int); INSERT INTO ulid_portable.keep_me VALUES (1)',
	'55000 schema ulid_portable holds objects that are not functions of the portable edition');
refused_adoption('schema_owner', $su,
	'ALTER SCHEMA ulid_portable OWNER TO outsider',
	'42501 schema ulid_portable exists and is not owned by the role creating the extension');
refused_adoption('function_owner', $su,
	'ALTER FUNCTION ulid_portable.ulid_ms(uuid) OWNER TO outsider',
	'42501 schema ulid_portable holds functions that the role creating the extension does not own');
is(su('holds_table', 'SELECT count(*) FROM ulid_portable.keep_me'),
	'1', '... the refused table still holds its row');

note 'from the extension to the native type and back';
SKIP:
{
	skip 'the native extension is not installed for this server: its round trip is not checked here',
	  4
	  unless -f "$sharedir/extension/ulid.control";
	$filenode = su('adopt', "SELECT pg_relation_filenode('app.t')");
	must(
		as_ok(
			$su, 'adopt',
			'CREATE EXTENSION ulid;
             ALTER TABLE app.t ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE ulid,
                               ALTER COLUMN id SET DEFAULT gen_ulid()'),
		'CREATE EXTENSION ulid; ALTER TABLE ... TYPE ulid');
	is( su( 'adopt',
			"SELECT pg_relation_filenode('app.t');
             SELECT count(*) FROM app.t WHERE id::text <> ulid_portable.ulid_encode(id::uuid)"),
		"$filenode\n0",
		'... not rewritten; the values are the portable edition\'s text');
	must(
		as_ok(
			$su, 'adopt',
			'ALTER TABLE app.t ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE uuid,
                               ALTER COLUMN id SET DEFAULT ulid_portable.gen_ulid()'),
		'and back: ALTER TABLE ... TYPE uuid, the portable default');
	is( su( 'adopt',
			"SELECT pg_relation_filenode('app.t');
             SELECT count(*) FROM app.t;
             INSERT INTO app.t (n) VALUES (102) RETURNING id > ALL (SELECT id FROM app.t WHERE n <= 101)"
		),
		"$filenode\n101\nt",
		'... not rewritten; 101 rows; a new row sorts last');
}

note 'the differential checks against the extension (t/lib/PortableDifferential.pm, the pg_tle form)';
must(new_db('differential'), 'a database for them');
PortableDifferential::run(
	node => $node,
	db   => 'differential',
	su   => $su,
	form => 'tle',
	work => $work);

note 'pg_tle took ' . (time - $started) . ' s';
done_testing();
