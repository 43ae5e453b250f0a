# Hostile role names: installing (and updating) the trusted extension as a role whose name is SQL.
#
# PostgreSQL substitutes @extowner@ (and @extschema@) into an extension script's text before it
# parses it, comments included, and a trusted install runs that text as the bootstrap superuser: a
# role name holding a newline ends a `--` comment and the rest of the name runs as SQL. Our scripts
# therefore contain neither placeholder (checked statically here, in the tree and in the server's
# extension directory), and this suite proves it against a server of its own: for each name below
# a non-superuser role with CREATE on the database (no other privilege) makes its own schema and
# runs CREATE EXTENSION ulid there (and, when older versions exist, CREATE ... VERSION + ALTER
# EXTENSION UPDATE; then the refresh round trip, UPDATE TO '<default>+refresh' + UPDATE, where it
# exists). Each name carries a payload that would make a victim role superuser, grant it a role,
# or create an object elsewhere if any of it ran as SQL. Checks per name: the extension installs
# (owned by that role, in its schema, working) or fails with a plain ERROR; no role's attributes,
# memberships or settings changed; nothing appeared outside the target schema; the schema guard
# still refuses a schema the role cannot create in (42501). On 19, which refuses role names holding
# a newline or a carriage return, those names are checked to be refused and left out.
#
# The names are built in SQL (a table of the suite's database), so that neither Perl nor the shell
# ever carries them; a session takes a name's role with SET ROLE from that table (\gexec).

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
my $root      = "$FindBin::RealBin/..";
my $sharedir  = pg_config_value('--sharedir', $pg_config);
my $db        = 'ulid_rn';

# ---------------------------------------------------------------------------------------------
# 1. The scripts hold no placeholder at all (comments included).
for my $dir ($root, "$sharedir/extension")
{
	my @scripts = sort glob("$dir/ulid--*.sql");
	cmp_num(scalar(@scripts), '>=', 1, "ulid--*.sql scripts in $dir");
	for my $f (@scripts)
	{
		my @hits = grep { /\@ext(owner|schema)\@/ } split /\n/, slurp_file($f);
		ok(!@hits, "$f: no \@extowner\@ / \@extschema\@")
		  or diag("placeholder substituted by CREATE EXTENSION: @hits");
	}
}

# ---------------------------------------------------------------------------------------------
# 2. Set-up: the names, their roles and schemas.
my $node = PostgreSQL::Test::Cluster->new('rolenames');
$node->init;
$node->start;

# dbq SQL [, psql args]: the output of SQL in the suite's database (ON_ERROR_STOP); the error as a
# diagnostic and '' when it fails
sub dbq
{
	my ($sql, @args) = @_;
	my ($rc, $out, $err) = $node->psql($db, $sql, extra_params => [@args]);
	if ($rc != 0)
	{
		diag("query failed: $err");
		return '';
	}
	return $out;
}

# as_role I, SQL [, psql args]: (exit status, stdout, stderr) of SQL in a session that first did
# SET ROLE to hostile name I
sub as_role
{
	my ($i, $sql, @args) = @_;
	my ($rc, $out, $err) = $node->psql(
		$db,
		"SELECT pg_catalog.format('SET ROLE %I', name) FROM ulid_rn_names WHERE i = $i\n"
		  . "\\gexec\n$sql\n",
		extra_params => [@args]);
	return ($rc, $out, $err);
}

# gexec SQL: run every statement SQL's rows spell; (exit status, stderr)
sub gexec
{
	my ($sql) = @_;
	my ($rc, $out, $err) = $node->psql($db, "$sql\n\\gexec\n");
	return ($rc, $err);
}

must(node_sql_ok($node, "CREATE DATABASE $db TEMPLATE template0"), "database $db created");
my @versions;
for (glob("$sharedir/extension/ulid--*.sql"))
{
	push @versions, $1 if m{/ulid--([^-]+)\.sql$};
}
# version order (sort -V): digit runs compared as numbers
sub vkey { my ($v) = @_; $v =~ s/(\d+)/sprintf('%09d', $1)/ge; return $v; }
@versions = sort { vkey($a) cmp vkey($b) } @versions;
my $oldest = $versions[0] // '';
my ($default) =
  slurp_file("$sharedir/extension/ulid.control") =~ /^\s*default_version\s*=\s*'([^']+)'/m;
$default //= '';
note 'server ' . dbq('SELECT version()') . "; install versions: @versions (default $default)";

# Every payload would, if run as SQL by the bootstrap superuser, make ulid_rn_victim a superuser,
# a member of pg_read_server_files, or create a table pg_catalog.ulid_rn_p or public.ulid_rn_p.
must(
	node_sql_ok(
		$node, "\\c $db\n" . <<'SQL'),
CREATE ROLE ulid_rn_victim NOLOGIN;
CREATE SCHEMA ulid_rn_locked;            -- owned by the superuser: nobody else may create in it
REVOKE CREATE ON SCHEMA public FROM PUBLIC;  -- as on 15+, also on older majors
CREATE TABLE ulid_rn_names (i int PRIMARY KEY, what text NOT NULL, name text NOT NULL);
INSERT INTO ulid_rn_names VALUES
 (1,  'newline',        E'ulid_rn\nALTER ROLE ulid_rn_victim SUPERUSER;--'),
 (2,  'carriage return', E'ulid_rn\rALTER ROLE ulid_rn_victim SUPERUSER;--'),
 (3,  'double dash',    'ulid_rn -- ALTER ROLE ulid_rn_victim SUPERUSER'),
 (4,  'comment open',   'ulid_rn /* ALTER ROLE ulid_rn_victim SUPERUSER'),
 (5,  'comment close',  'ulid_rn */ ALTER ROLE ulid_rn_victim SUPERUSER; /*'),
 (6,  'semicolon',      'ulid_rn; GRANT pg_read_server_files TO ulid_rn_victim;'),
 (7,  'double quote',   'ulid_rn"; ALTER ROLE ulid_rn_victim SUPERUSER; --'),
 (8,  'dollar',         'ulid_rn$owner$;CREATE TABLE pg_catalog.ulid_rn_p();$owner$'),
 (9,  'backslash',      E'ulid_rn\\'';\\\\ ALTER ROLE ulid_rn_victim SUPERUSER; --'),
 (10, 'single quote',   'ulid_rn''); CREATE TABLE public.ulid_rn_p(); --'),
 (11, 'unicode',        'ulid_rn_ülïd_名前_🔑'),
 (12, 'all at once',    E'ulid_rn"\n\r--/**/;$$''\\ ALTER ROLE ulid_rn_victim SUPERUSER;--'),
 (13, '63 bytes',       'ulid_rn_' || pg_catalog.repeat('x', 55));
SQL
	'the victim role, the locked schema and the table of names');
cmp_num(dbq('SELECT octet_length(name) FROM ulid_rn_names WHERE i = 13'),
	'==', 63, '63-byte name is 63 bytes');

# 19 refuses a role name holding a newline or a carriage return: there those names are checked to
# be refused, and the rest of the suite goes on without them.
if ($node->safe_psql('postgres', 'SHOW server_version_num') >= 190000)
{
	for my $i (split /\n/, dbq(q{SELECT i FROM ulid_rn_names WHERE name ~ '[\n\r]' ORDER BY i}))
	{
		my $what = dbq("SELECT what FROM ulid_rn_names WHERE i = $i");
		my ($rc, $err) = gexec(
			"SELECT pg_catalog.format('CREATE ROLE %I', name) FROM ulid_rn_names WHERE i = $i");
		ok($rc != 0 && $err =~ /contains a newline or carriage return character/,
			"19: a role name with a $what is refused")
		  or diag($rc == 0 ? 'accepted' : $err);
	}
	cmp_num(
		dbq(q{WITH d AS (DELETE FROM ulid_rn_names WHERE name ~ '[\n\r]' RETURNING 1) SELECT count(*) FROM d}),
		'==', 3, '19: names with a newline or carriage return left out');
}
my $count = dbq('SELECT count(*) FROM ulid_rn_names');
must(
	(gexec(
		"SELECT pg_catalog.format('CREATE ROLE %I NOSUPERUSER NOCREATEDB NOCREATEROLE', name) FROM ulid_rn_names ORDER BY i"
	))[0] == 0
	  && (gexec(
		"SELECT pg_catalog.format('GRANT CREATE ON DATABASE %I TO %I', current_database(), name) FROM ulid_rn_names ORDER BY i"
	  ))[0] == 0
	  && (gexec(
		"SELECT pg_catalog.format('CREATE SCHEMA ulid_rn_s%s AUTHORIZATION %I', i, name) FROM ulid_rn_names ORDER BY i"
	  ))[0] == 0,
	'each name: its role, CREATE on the database, its schema');
cmp_num(dbq('SELECT count(*) FROM ulid_rn_names n JOIN pg_roles r ON r.rolname = n.name'),
	'==', $count, 'hostile roles created with their exact names');

# What must not change: roles' attributes and settings, memberships, and every object outside the
# ulid_rn_s* schemas (by catalog, namespace and name), casts and extensions excepted only where they
# belong to the extension being installed.
my $snapshot_sql = <<'SQL';
SELECT 'role ' || ROW(rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin,
                      rolreplication, rolbypassrls, rolconnlimit, rolvaliduntil)::text FROM pg_roles
UNION ALL SELECT 'member ' || ROW(roleid::regrole, member::regrole, admin_option)::text FROM pg_auth_members
UNION ALL SELECT 'setting ' || ROW(setrole, setdatabase, setconfig)::text FROM pg_db_role_setting
UNION ALL SELECT 'database ' || ROW(datname, datdba::regrole, datacl)::text FROM pg_database
UNION ALL SELECT 'namespace ' || ROW(nspname, nspowner::regrole, nspacl)::text FROM pg_namespace
          WHERE nspname NOT LIKE 'ulid\_rn\_s%'
UNION ALL SELECT 'object ' || ROW(x.cat, n.nspname, x.name)::text
FROM (SELECT 'class', relnamespace, relname::text || coalesce(relacl::text, '') FROM pg_class
      UNION ALL SELECT 'proc', pronamespace, proname::text || '(' || proargtypes::text || ')' || coalesce(proacl::text, '') FROM pg_proc
      UNION ALL SELECT 'type', typnamespace, typname::text FROM pg_type
      UNION ALL SELECT 'operator', oprnamespace, oprname::text || oprleft || ',' || oprright FROM pg_operator
      UNION ALL SELECT 'opclass', opcnamespace, opcname::text FROM pg_opclass
      UNION ALL SELECT 'opfamily', opfnamespace, opfname::text FROM pg_opfamily
      UNION ALL SELECT 'collation', collnamespace, collname::text FROM pg_collation
      UNION ALL SELECT 'conversion', connamespace, conname::text FROM pg_conversion) x(cat, nsp, name)
JOIN pg_namespace n ON n.oid = x.nsp
WHERE n.nspname NOT LIKE 'ulid\_rn\_s%' AND n.nspname NOT LIKE 'pg\_temp%' AND n.nspname NOT LIKE 'pg\_toast%'
UNION ALL SELECT 'cast ' || ROW(castsource::regtype, casttarget::regtype, castfunc, castcontext)::text FROM pg_cast
          WHERE NOT EXISTS (SELECT 1 FROM pg_depend d
                            WHERE d.classid = 'pg_cast'::regclass AND d.objid = pg_cast.oid AND d.deptype = 'e')
UNION ALL SELECT 'event trigger ' || ROW(evtname, evtevent, evtowner::regrole)::text FROM pg_event_trigger
UNION ALL SELECT 'extension ' || ROW(extname, extnamespace::regnamespace)::text FROM pg_extension WHERE extname <> 'ulid'
ORDER BY 1
SQL
my $before = dbq($snapshot_sql);
cmp_num(scalar(split /\n/, $before), '>', 1000, 'snapshot lines before');

# ---------------------------------------------------------------------------------------------
# 3. Each name installs the extension into its own schema as itself.
for my $i (split /\n/, dbq('SELECT i FROM ulid_rn_names ORDER BY i'))
{
	my $what = dbq("SELECT what FROM ulid_rn_names WHERE i = $i");
	my $install =
	  $oldest ne $default
	  ? "CREATE EXTENSION ulid SCHEMA ulid_rn_s$i VERSION '$oldest'; ALTER EXTENSION ulid UPDATE;"
	  : "CREATE EXTENSION ulid SCHEMA ulid_rn_s$i;";
	# and the refresh round trip after pg_upgrade (docs/upgrading.md), where the release has it
	$install .=
	  " ALTER EXTENSION ulid UPDATE TO '$default+refresh'; ALTER EXTENSION ulid UPDATE;"
	  if -f "$sharedir/extension/ulid--$default--$default+refresh.sql";
	my ($rc, $out, $err) = as_role($i, $install, '-v', 'VERBOSITY=verbose');
	if ($rc == 0)
	{
		my $row = dbq("SELECT e.extowner = r.oid, e.extnamespace::regnamespace::text, e.extversion,
                            (SELECT count(*) FROM pg_depend d WHERE d.refobjid = e.oid AND d.deptype = 'e')
                     FROM pg_extension e, ulid_rn_names n JOIN pg_roles r ON r.rolname = n.name
                     WHERE e.extname = 'ulid' AND n.i = $i");
		like($row, qr/^t\|ulid_rn_s$i\|\Q$default\E\|[0-9]+$/,
			"[$what] installed, owned by the role, in its schema, at $default");
		my (undef, $works, $werr) = as_role($i,
			"SELECT ulid_rn_s$i.ulid_to_timestamp(ulid_rn_s$i.gen_ulid()) <= pg_catalog.clock_timestamp()
                     AND '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid_rn_s$i.ulid::text = '01ARZ3NDEKTSV4RRFFQ69G5FAV'"
		);
		is($works, 't', "[$what] the role uses it") or diag($werr);
	}
	else
	{
		my ($msg) = grep { /^(psql:.*)?ERROR/ } split /\n/, $err;
		like($msg // '', qr/ERROR:  [0-9A-Z]{5}: .+/, "[$what] refused with a plain error");
		note "[$what] " . ($err =~ tr/\n/ /r);
	}
	my (undef, undef, $denied) =
	  as_role($i, 'DROP EXTENSION IF EXISTS ulid; CREATE EXTENSION ulid SCHEMA ulid_rn_locked;',
		'-v', 'VERBOSITY=verbose');
	like(
		$denied,
		qr/ERROR:  42501: permission denied for schema ulid_rn_locked/,
		"[$what] guard refuses a schema the role cannot create in");
	my $after = dbq($snapshot_sql);
	if (!ok($before eq $after, "[$what] no role, membership, setting or object outside the role's schema changed"))
	{
		my %was = map { $_ => 1 } split /\n/, $before;
		my %is  = map { $_ => 1 } split /\n/, $after;
		my @diff = ((map { "- $_" } grep { !$is{$_} } sort keys %was),
			(map { "+ $_" } grep { !$was{$_} } sort keys %is));
		diag(join("\n", grep { defined } @diff[ 0 .. 19 ]));
	}
}

is( dbq(q{SELECT rolsuper::text || ',' || (SELECT count(*) FROM pg_auth_members m WHERE m.member = r.oid)
               FROM pg_roles r WHERE rolname = 'ulid_rn_victim'}),
	'false,0',
	'victim role is still no superuser and a member of nothing');
cmp_num(dbq(q{SELECT count(*) FROM pg_class WHERE relname = 'ulid_rn_p'}),
	'==', 0, 'tables planted by payloads');

$node->stop;
note 'install_role_names took ' . (time - $started) . ' s';
done_testing();
