# Hostile-SQL suite: the install script resists planted look-alikes, and a trusted (non-superuser)
# install gives its owner no power it did not have.
#
# Look-alikes are planted for every pg_catalog function the extension's catalog entries or its
# install script reference (eqsel, scalarltsel, btequalimage, brin_minmax_*, current_setting, ...),
# same name and signature: plpgsql ones log the call in a table and raise a WARNING; those with
# `internal` in their signature (plpgsql cannot have that) are LANGUAGE internal aliases of
# internal_in, which raises "cannot accept a value of type internal" when called. Also operators on
# built-in types (>= on integer, = on text/oid), polymorphic overloads of the extension's own
# function names, domains named like pg_catalog types, functions named like casts, and in pg_temp
# tables/types named ulid, gen_ulid, ulid_ops. The install script is this tree's, of the
# default_version of ulid.control (made by src/sql/assemble.sh where the Makefile makes it).
#
# (a) malicious search_path: as the installing superuser, with look-alikes in a schema "evil"
#     (owned by another role) and in pg_temp, and search_path = pg_temp, evil, pg_catalog, public:
#     (a1) CREATE EXTENSION ulid SCHEMA ulid_home; (a2) with the look-alikes planted in the target
#     schema itself (a schema the attacker may create in), CREATE EXTENSION ulid SCHEMA shared.
#     Then: every function the extension's catalog entries reference (type I/O, operator code and
#     estimators, pg_amproc, aggregates, casts) and every operator they reference is in pg_catalog
#     or a member of the extension; every type in a member function's signature or a cast likewise;
#     after exercising everything (btree/hash/BRIN indexes, planner estimates, joins, casts,
#     aggregates) with the hostile search_path still set, no look-alike was ever called.
#     The look-alikes have the built-ins' exact signatures, and CREATE EXTENSION runs the script
#     with pg_catalog searched first: a built-in left unqualified in today's script is still found
#     in pg_catalog and passes here (every pg_catalog.current_setting( made bare did); that every
#     built-in is qualified is the static check of the script rules (docs/security.md).
# (b) trusted install: a role with CREATE on the database only. Without CREATE it cannot install;
#     with it, it installs into its own schema (not into pg_catalog or public), owns the extension
#     but none of its objects (they belong to the bootstrap superuser); it cannot create a C
#     function (not even on ulid's symbols), replace, alter, rename, drop or detach an extension
#     function, create a base type on ulid_in/ulid_out, a binary-coercible cast from or to ulid, or
#     an operator class over ulid's support functions, LOAD the library, or move the extension into
#     pg_catalog; every member function taking `internal` is STRICT (NULL never reaches C code) and
#     `internal` values cannot be made in SQL; look-alikes it planted in its own schema (which would
#     make it superuser if the script, run as superuser, ever called one) were never called; it
#     can still use and drop the extension.
#
# One server of its own (the major under test, with this tree's extension installed); roles
# ulid_hx_attacker, ulid_hx_owner, ulid_hx_nobody, ulid_hx_user and databases hx_probe, hx_a1,
# hx_a2, hx_b. Where a major lacks something, that part is left out and noted: PostgreSQL 13 has no
# pg_type.typsubscript to check and no minmax-multi or bloom BRIN operator classes to exercise;
# before 15 everybody may create in public, so installing there is allowed for the owner too (the
# guard follows the privilege, not the schema's name): checked to happen only before 15, instead of
# the refusal. About 35 s.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started = time;
my $work    = PostgreSQL::Test::Utils::tempdir;

my $node = PostgreSQL::Test::Cluster->new('hostile');
$node->init;
$node->start;

# run_as(ROLE, DB, SQL): psql as ROLE (undef: the bootstrap superuser) in DB, SQL on its standard
# input (ON_ERROR_STOP); its exit status, its output and its error text
sub run_as
{
	my ($role, $db, $sql) = @_;
	my @extra = defined $role ? ('-U', $role) : ();
	my ($rc, $out, $err) = $node->psql($db, $sql, extra_params => \@extra);
	return ($rc, $out, $err);
}

# query(DB, SQL): the output of SQL as the superuser; '' and the error as a diagnostic on an error
sub query
{
	my ($db, $sql) = @_;
	my ($rc, $out, $err) = run_as(undef, $db, $sql);
	if ($rc != 0)
	{
		diag("$db: query failed: $err");
		return '';
	}
	return $out;
}

# sql_ok(ROLE, DB, SQL): true when SQL ran as ROLE (undef: the superuser) without an error
sub sql_ok
{
	my ($role, $db, $sql) = @_;
	my ($rc, $out, $err) = run_as($role, $db, $sql);
	diag(($role // 'superuser') . " in $db: $err") if $rc != 0;
	return $rc == 0;
}

# first_error(TEXT): the first line of psql's error text that holds ERROR (else its first line)
sub first_error
{
	my ($text) = @_;
	my ($line) = $text =~ /^(.*ERROR.*)$/m;
	return $line // (split /\n/, $text)[0] // '';
}

# denied(NAME, ROLE, DB, SQL, REGEX): the statement fails for ROLE with an error matching REGEX
sub denied
{
	my ($name, $role, $db, $sql, $re) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my ($rc, $out, $err) = run_as($role, $db, $sql);
	if ($rc == 0)
	{
		fail($name);
		diag("$name: succeeded (it must not)");
		return;
	}
	like(first_error($err), qr/$re/, $name);
	return;
}

must(
	sql_ok(
		undef, 'postgres', q{
    CREATE ROLE ulid_hx_attacker NOLOGIN;
    CREATE ROLE ulid_hx_owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
    CREATE ROLE ulid_hx_nobody LOGIN NOSUPERUSER;
    CREATE ROLE ulid_hx_user LOGIN NOSUPERUSER;
    CREATE DATABASE hx_probe TEMPLATE template0;
    CREATE DATABASE hx_a1 TEMPLATE template0;
    CREATE DATABASE hx_a2 TEMPLATE template0;
    CREATE DATABASE hx_b TEMPLATE template0}),
	'roles ulid_hx_attacker, ulid_hx_owner, ulid_hx_nobody, ulid_hx_user; databases hx_probe, hx_a1, hx_a2, hx_b'
);
note query('postgres', 'SELECT version()');

# ---------------------------------------------------------------------------------------------
# What to imitate: pg_catalog functions the extension's catalog references (from a clean install),
# and every pg_catalog function named in the install script.
my ($version) = slurp_file('ulid.control') =~ /^\s*default_version\s*=\s*'([^']+)'/m;
my $script = "ulid--$version.sql";
my $script_text;
must_run(
	"the install script $script (this tree's), and CREATE EXTENSION ulid in hx_probe",
	sub {
		die "ulid.control: no default_version\n" unless defined $version;
		my ($rc, $list) = run_cmd('sh', 'src/sql/assemble.sh', '--list', '.');
		die "src/sql/assemble.sh --list: $list" if $rc != 0;
		my $file = $script;
		if (grep { $_ eq $version } split /\n/, $list)
		{
			$file = "$work/$script";
			my ($rc2, $out) = run_cmd('sh', 'src/sql/assemble.sh', '.', $file);
			die "src/sql/assemble.sh . $file: $out" if $rc2 != 0;
		}
		$script_text = slurp_file($file);
		sql_ok(undef, 'hx_probe', 'CREATE EXTENSION ulid') or die "CREATE EXTENSION ulid failed\n";
	});
my %seen;
my $names = join(',', sort grep { !$seen{$_}++ } $script_text =~ /pg_catalog\.([a-z_0-9]+)\(/g);

# PostgreSQL 13 has no pg_type.typsubscript (the subscripting handler) and no minmax-multi or bloom
# BRIN operator classes
my $subscript_ref = q{, ('subscript', t.typsubscript)};
my $brin14_sql    = q{CREATE INDEX hx_t_multi ON hx_t USING brin (r ulid_minmax_multi_ops);
        CREATE INDEX hx_t_bloom ON hx_t USING brin (r ulid_bloom_ops);};
if (query('hx_probe', 'SHOW server_version_num') < 140000)
{
	$subscript_ref = '';
	$brin14_sql    = '';
	note 'PostgreSQL 13: no typsubscript to check, no minmax-multi/bloom BRIN indexes to exercise';
}

# $members_sql: WITH ext (the extension), mem (its member objects: classid, objid), fams (its
# operator families and those of its operator classes); a query adds its own CTEs and SELECT
my $members_sql = q{
WITH ext AS (SELECT e.oid FROM pg_extension e WHERE e.extname = 'ulid'),
mem AS (SELECT d.classid, d.objid FROM pg_depend d, ext
        WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'),
fams AS (SELECT objid AS oid FROM mem WHERE classid = 'pg_opfamily'::regclass
         UNION SELECT c.opcfamily FROM pg_opclass c JOIN mem ON mem.classid = 'pg_opclass'::regclass
                                                             AND mem.objid = c.oid)};
# $refs_sql: (kind, function oid) for every function the extension's catalog entries point to
my $refs_sql = $members_sql . q{,
refs(kind, fn) AS (
    SELECT 'type ' || x.k, x.f FROM pg_type t JOIN mem ON mem.classid = 'pg_type'::regclass AND mem.objid = t.oid,
        LATERAL (VALUES ('input', t.typinput::oid), ('output', t.typoutput), ('receive', t.typreceive),
                        ('send', t.typsend), ('analyze', t.typanalyze)} . $subscript_ref . q{,
                        ('modin', t.typmodin), ('modout', t.typmodout)) x(k, f)
    UNION ALL
    SELECT 'operator ' || x.k, x.f FROM pg_operator o JOIN mem ON mem.classid = 'pg_operator'::regclass AND mem.objid = o.oid,
        LATERAL (VALUES ('code', o.oprcode::oid), ('restrict', o.oprrest), ('join', o.oprjoin)) x(k, f)
    UNION ALL
    SELECT 'amproc', a.amproc FROM pg_amproc a WHERE a.amprocfamily IN (SELECT oid FROM fams)
    UNION ALL
    SELECT 'aggregate ' || x.k, x.f FROM pg_aggregate g JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = g.aggfnoid,
        LATERAL (VALUES ('transfn', g.aggtransfn::oid), ('finalfn', g.aggfinalfn), ('combinefn', g.aggcombinefn),
                        ('serialfn', g.aggserialfn), ('deserialfn', g.aggdeserialfn), ('mtransfn', g.aggmtransfn),
                        ('minvtransfn', g.aggminvtransfn), ('mfinalfn', g.aggmfinalfn)) x(k, f)
    UNION ALL
    SELECT 'cast', c.castfunc FROM pg_cast c JOIN mem ON mem.classid = 'pg_cast'::regclass AND mem.objid = c.oid
    UNION ALL
    SELECT 'function support', p.prosupport FROM pg_proc p JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid
)};
my $oids = query(
	'hx_probe', "$refs_sql
    SELECT string_agg(DISTINCT p.oid::text, ',') FROM refs JOIN pg_proc p ON p.oid = refs.fn
    WHERE refs.fn <> 0 AND p.pronamespace = 'pg_catalog'::regnamespace");
my $own_fns = query(
	'hx_probe', q{SELECT string_agg(DISTINCT p.proname || ':' || p.pronargs, ',')
    FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
    JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
    WHERE d.deptype = 'e' AND p.pronargs > 0 AND p.prokind = 'f'
      AND NOT 'internal'::regtype = ANY (p.proargtypes::oid[])});
note "look-alikes of pg_catalog functions named in $script ($names) and of "
  . scalar(grep { $_ ne '' } split /,/, $oids)
  . ' functions the catalog references';

# plant_sql(SCHEMA, LOG_TABLE, ALLOW_INTERNAL, ESCALATE_ROLE): SQL that plants look-alikes in
# SCHEMA. ALLOW_INTERNAL ('true') also makes the `internal`-signature tripwires (needs a
# superuser). ESCALATE_ROLE (may be ''): a logger also tries ALTER ROLE ... SUPERUSER (as whoever
# calls it).
sub plant_sql
{
	my ($s, $log, $allow_internal, $escalate) = @_;
	my $sql = <<'SQL';
CREATE TABLE @LOG@ (fn text, by_user name DEFAULT current_user, at timestamptz DEFAULT clock_timestamp());
GRANT INSERT, SELECT ON @LOG@ TO PUBLIC;
DO $plant$
DECLARE
    r record;
    body text;
BEGIN
    FOR r IN
        SELECT DISTINCT p.proname, pg_get_function_identity_arguments(p.oid) AS args,
               pg_get_function_result(p.oid) AS ret,
               EXISTS (SELECT FROM unnest(p.proargtypes::oid[] || p.prorettype) t(oid)
                       JOIN pg_type ty ON ty.oid = t.oid
                       WHERE ty.typtype = 'p' AND ty.typname NOT IN ('void', 'anyelement', 'cstring')) AS pseudo
        FROM pg_proc p
        WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind = 'f' AND p.proretset = false
          AND (p.oid = ANY ('{@OIDS@}'::oid[]) OR p.proname = ANY (string_to_array('@NAMES@', ',')))
    LOOP
        IF r.pseudo THEN
            CONTINUE WHEN NOT @ALLOW@::bool;
            BEGIN
                EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE internal AS %L',
                               '@S@', r.proname, r.args, r.ret, 'internal_in');
            EXCEPTION WHEN invalid_function_definition THEN
                -- 17+ refuses a polymorphic result without a polymorphic argument (array_in's
                -- anyarray from cstring): nobody, superuser or not, can plant that look-alike
                RAISE NOTICE 'not plantable on this server: %.%(%): %', '@S@', r.proname, r.args, SQLERRM;
            END;
        ELSE
            body := format('BEGIN INSERT INTO @LOG@ (fn) VALUES (%L); %s RAISE WARNING %L; RETURN%s; END',
                           '@S@.' || r.proname || '(' || r.args || ')',
                           CASE WHEN '@ESC@' <> '' THEN
                               'BEGIN ALTER ROLE @ESC@ SUPERUSER; EXCEPTION WHEN others THEN NULL; END;' ELSE '' END,
                           'look-alike @S@.' || r.proname || ' called',
                           CASE WHEN r.ret = 'void' THEN '' ELSE ' NULL' END);
            EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
                           '@S@', r.proname, r.args, r.ret, body);
        END IF;
    END LOOP;
    -- polymorphic overloads of the extension's own function names (same number of arguments)
    FOR r IN SELECT split_part(x, ':', 1) AS name, split_part(x, ':', 2)::int AS n
             FROM unnest(string_to_array('@OWNFNS@', ',')) x
    LOOP
        EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS anyelement LANGUAGE plpgsql AS %L', '@S@', r.name,
                       array_to_string(array_fill('anyelement'::text, ARRAY[r.n]), ','),
                       format('BEGIN INSERT INTO @LOG@ (fn) VALUES (%L); RAISE WARNING %L; RETURN NULL; END',
                              '@S@.' || r.name || '(anyelement...)', 'look-alike @S@.' || r.name || ' called'));
    END LOOP;
    -- functions named like the casts' targets and like our type
    FOREACH body IN ARRAY ARRAY['text', 'timestamptz', 'uuid', 'bytea', 'int4', 'ulid'] LOOP
        EXECUTE format('CREATE FUNCTION %I.%I(anyelement) RETURNS text LANGUAGE plpgsql AS %L', '@S@', body,
                       format('BEGIN INSERT INTO @LOG@ (fn) VALUES (%L); RAISE WARNING %L; RETURN NULL; END',
                              '@S@.' || body || '(anyelement)', 'look-alike @S@.' || body || ' called'));
    END LOOP;
END
$plant$;
-- operators on built-in types (the DO block of the script compares integers)
CREATE FUNCTION @S@.evil_int4_ge(integer, integer) RETURNS boolean LANGUAGE plpgsql AS
    $f$BEGIN INSERT INTO @LOG@ (fn) VALUES ('@S@.>=(integer,integer)'); RAISE WARNING 'look-alike @S@.>= called'; RETURN NULL; END$f$;
CREATE FUNCTION @S@.evil_text_eq(text, text) RETURNS boolean LANGUAGE plpgsql AS
    $f$BEGIN INSERT INTO @LOG@ (fn) VALUES ('@S@.=(text,text)'); RAISE WARNING 'look-alike @S@.= called'; RETURN NULL; END$f$;
CREATE FUNCTION @S@.evil_oid_eq(oid, oid) RETURNS boolean LANGUAGE plpgsql AS
    $f$BEGIN INSERT INTO @LOG@ (fn) VALUES ('@S@.=(oid,oid)'); RAISE WARNING 'look-alike @S@.= called'; RETURN NULL; END$f$;
CREATE OPERATOR @S@.>= (LEFTARG = integer, RIGHTARG = integer, FUNCTION = @S@.evil_int4_ge);
CREATE OPERATOR @S@.= (LEFTARG = text, RIGHTARG = text, FUNCTION = @S@.evil_text_eq);
CREATE OPERATOR @S@.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = @S@.evil_oid_eq);
SQL
	my %with = (
		S      => $s,
		LOG    => $log,
		ALLOW  => $allow_internal,
		ESC    => $escalate,
		OIDS   => $oids,
		NAMES  => $names,
		OWNFNS => $own_fns);
	$sql =~ s/\@(S|LOG|ALLOW|ESC|OIDS|NAMES|OWNFNS)\@/$with{$1}/g;
	return $sql;
}

# planted_calls(DB, LOG): how many look-alike calls were logged
sub planted_calls
{
	my ($db, $log) = @_;
	return query($db, "SELECT count(*) FROM $log");
}

# check_catalog(LABEL, DB, SCHEMA): the extension's catalog references only pg_catalog and itself
# (4 checks)
sub check_catalog
{
	my ($l, $db, $schema) = @_;
	is(query($db, "SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = 'ulid'"),
		$schema, "$l: the extension is in schema $schema");
	my ($total, $badrefs) = split / /, query(
		$db, $refs_sql . q{,
        checked AS (
            SELECT refs.kind, p.oid::regprocedure::text AS fn, p.pronamespace,
                   EXISTS (SELECT FROM mem WHERE mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid) AS member
            FROM refs JOIN pg_proc p ON p.oid = refs.fn WHERE refs.fn <> 0)
        SELECT count(*) || ' ' || count(*) FILTER (WHERE NOT member AND pronamespace <> 'pg_catalog'::regnamespace)
        FROM checked});
	cmp_num($badrefs, '==', 0,
		"$l: function references (type I/O, operator code/restrict/join, amproc, aggregates, casts, support) outside pg_catalog and the extension (of "
		  . ($total // '?')
		  . ')');
	my $outside = query(
		$db, $refs_sql . q{ SELECT '    ' || refs.kind || ' -> ' || p.oid::regprocedure FROM refs JOIN pg_proc p ON p.oid = refs.fn
             WHERE refs.fn <> 0 AND p.pronamespace <> 'pg_catalog'::regnamespace
               AND NOT EXISTS (SELECT FROM mem WHERE mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid)});
	diag("$l: references outside pg_catalog and the extension:\n$outside") if $outside ne '';
	my ($nops, $badops, $ntypes, $badtypes) = split / /, query(
		$db, $members_sql . q{,
        ops(kind, op) AS (
            SELECT 'amop', a.amopopr FROM pg_amop a WHERE a.amopfamily IN (SELECT oid FROM fams)
            UNION ALL SELECT 'commutator', o.oprcom FROM pg_operator o JOIN mem ON mem.classid = 'pg_operator'::regclass AND mem.objid = o.oid
            UNION ALL SELECT 'negator', o.oprnegate FROM pg_operator o JOIN mem ON mem.classid = 'pg_operator'::regclass AND mem.objid = o.oid
            UNION ALL SELECT 'sortop', g.aggsortop FROM pg_aggregate g JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = g.aggfnoid),
        types(kind, t) AS (
            SELECT 'argument', unnest(p.proargtypes::oid[]) FROM pg_proc p JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid
            UNION ALL SELECT 'result', p.prorettype FROM pg_proc p JOIN mem ON mem.classid = 'pg_proc'::regclass AND mem.objid = p.oid
            UNION ALL SELECT 'cast source', c.castsource FROM pg_cast c JOIN mem ON mem.classid = 'pg_cast'::regclass AND mem.objid = c.oid
            UNION ALL SELECT 'cast target', c.casttarget FROM pg_cast c JOIN mem ON mem.classid = 'pg_cast'::regclass AND mem.objid = c.oid
            UNION ALL SELECT 'opclass input', c.opcintype FROM pg_opclass c JOIN mem ON mem.classid = 'pg_opclass'::regclass AND mem.objid = c.oid)
        SELECT (SELECT count(*) FROM ops WHERE op <> 0) || ' ' ||
               (SELECT count(*) FROM ops JOIN pg_operator o ON o.oid = ops.op
                WHERE o.oprnamespace <> 'pg_catalog'::regnamespace
                  AND NOT EXISTS (SELECT FROM mem WHERE mem.classid = 'pg_operator'::regclass AND mem.objid = o.oid)) || ' ' ||
               (SELECT count(*) FROM types) || ' ' ||
               (SELECT count(*) FROM types JOIN pg_type ty ON ty.oid = types.t
                WHERE ty.typnamespace <> 'pg_catalog'::regnamespace
                  AND NOT EXISTS (SELECT FROM mem WHERE mem.classid = 'pg_type'::regclass AND mem.objid = ty.oid))});
	cmp_num($badops, '==', 0,
		"$l: operator references (opclass members, commutators, negators, aggregate sort operators) outside pg_catalog and the extension (of "
		  . ($nops // '?')
		  . ')');
	cmp_num($badtypes, '==', 0,
		"$l: types in member signatures, casts and opclasses outside pg_catalog and the extension (of "
		  . ($ntypes // '?')
		  . ')');
	return;
}

# exercise(DB, SEARCH_PATH [, ROLE]): use every kind of catalog entry (planner estimates, index
# builds and scans, sorts, hash joins, aggregates, casts); its exit status and psql's error text.
# Built-in type names are written pg_catalog-qualified: a look-alike domain named text earlier in
# the path captures a bare ::text in the caller's own query (PostgreSQL name resolution, not the
# extension's catalog).
sub exercise
{
	my ($db, $path, $role) = @_;
	my ($rc, $out, $err) = run_as(
		$role, $db, "SET search_path = $path;
        CREATE TABLE hx_t (id ulid PRIMARY KEY DEFAULT gen_ulid(), r ulid DEFAULT gen_random_ulid(), n int);
        INSERT INTO hx_t (n) SELECT g FROM generate_series(1, 3000) g;
        CREATE INDEX hx_t_hash ON hx_t USING hash (id);
        CREATE INDEX hx_t_brin ON hx_t USING brin (id);
        $brin14_sql
        ANALYZE hx_t;
        SELECT count(*) FROM hx_t a JOIN hx_t b ON a.id = b.id WHERE a.id > ulid_min(now() - interval '1 day');
        SELECT count(*) FROM hx_t a JOIN hx_t b ON a.r = b.r WHERE a.r <> b.id AND a.id <= b.id AND a.id >= b.id;
        SET enable_seqscan = off;
        SELECT count(*) FROM hx_t WHERE id < ulid_max(now());
        SELECT min(id) < max(id), min(r) <= max(r) FROM hx_t;
        SELECT count(DISTINCT id::pg_catalog.text), count(DISTINCT id::pg_catalog.uuid),
               count(DISTINCT id::pg_catalog.bytea), count(DISTINCT id::pg_catalog.timestamptz) > 0,
               count(DISTINCT ('2020-01-01'::pg_catalog.timestamptz)::ulid),
               count(DISTINCT (id::pg_catalog.text)::ulid), count(DISTINCT (id::pg_catalog.uuid)::ulid),
               count(DISTINCT (id::pg_catalog.bytea)::ulid)
        FROM hx_t;
        SELECT id FROM hx_t ORDER BY id DESC LIMIT 1;
        SELECT count(*) FROM (SELECT id FROM hx_t GROUP BY id) s;
        DROP TABLE hx_t;");
	return ($rc, $err);
}

# installed_clean(LABEL, DB, SCHEMA, LOG, RC, ERR, INSTALL, PATH, EXERCISE): the checks of (a1) and
# (a2) once INSTALL (a CREATE EXTENSION run by the superuser) gave exit status RC and error text
# ERR: it succeeded and printed nothing, check_catalog, no look-alike call in LOG; then exercise
# with search_path PATH: no error, nothing printed, still no call logged (10 checks)
sub installed_clean
{
	my ($l, $db, $schema, $log, $rc, $err, $install, $path, $what) = @_;
	is($rc,  0,  "$l $install: exit status");
	is($err, '', "$l ... and it printed nothing on stderr (no look-alike WARNING)");
	check_catalog($l, $db, $schema);
	cmp_num(planted_calls($db, $log), '==', 0, "$l look-alike calls logged during CREATE EXTENSION");
	($rc, $err) = exercise($db, $path);
	is($rc,  0,  "$l $what: exit status");
	is($err, '', "$l ... and no look-alike WARNING or tripwire error");
	cmp_num(planted_calls($db, $log), '==', 0, "$l look-alike calls logged after the exercise");
	return;
}

# ---------------------------------------------------------------------------------------------
note '(a1) look-alikes in schema evil (owned by ulid_hx_attacker) and pg_temp; '
  . 'search_path = pg_temp, evil, pg_catalog, public; CREATE EXTENSION ulid SCHEMA ulid_home';
my $plant_a1 =
  "CREATE SCHEMA evil; CREATE SCHEMA ulid_home;\n"
  . plant_sql('evil', 'evil.calls', 'true', '')
  . join('',
	map { "CREATE DOMAIN evil.$_ AS pg_catalog.int2;\n" }
	  qw(text int4 int8 bool oid float8 void internal cstring bytea timestamptz uuid))
  . "ALTER SCHEMA evil OWNER TO ulid_hx_attacker;\n";
ok(sql_ok(undef, 'hx_a1', $plant_a1), '(a1) look-alikes planted in evil');
note '(a1) planted '
  . query('hx_a1', q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'evil'::regnamespace})
  . ' look-alike functions, '
  . query('hx_a1', q{SELECT count(*) FROM pg_operator WHERE oprnamespace = 'evil'::regnamespace})
  . ' operators, '
  . query('hx_a1',
	q{SELECT count(*) FROM pg_type WHERE typnamespace = 'evil'::regnamespace AND typtype = 'd'})
  . ' domains in evil';
my ($rc, $out, $err) = run_as(
	undef, 'hx_a1', q{CREATE TEMP TABLE ulid (x int);
            CREATE TEMP TABLE gen_ulid (x int);
            CREATE TYPE pg_temp.ulid_ops AS (x int);
            CREATE FUNCTION pg_temp.btequalimage(oid) RETURNS boolean LANGUAGE plpgsql AS
                $$BEGIN INSERT INTO evil.calls (fn) VALUES ('pg_temp.btequalimage'); RETURN NULL; END$$;
            CREATE FUNCTION pg_temp.eqsel(internal, oid, internal, integer) RETURNS float8
                LANGUAGE internal AS 'internal_in';
            SET search_path = pg_temp, evil, pg_catalog, public;
            CREATE EXTENSION ulid SCHEMA ulid_home;});
installed_clean('(a1)', 'hx_a1', 'ulid_home', 'evil.calls', $rc, $err,
	'CREATE EXTENSION ulid SCHEMA ulid_home under the hostile search_path',
	'ulid_home, evil, pg_catalog, public',
	'exercising indexes, estimates, joins, aggregates and casts with evil before pg_catalog');

# ---------------------------------------------------------------------------------------------
note '(a2) look-alikes planted in the target schema itself (shared, where ulid_hx_attacker may '
  . 'create); CREATE EXTENSION ulid SCHEMA shared';
my $plant_a2 =
  "CREATE SCHEMA shared; GRANT USAGE, CREATE ON SCHEMA shared TO ulid_hx_attacker;\n"
  . plant_sql('shared', 'shared.calls', 'true', '');
ok(sql_ok(undef, 'hx_a2', $plant_a2), '(a2) look-alikes planted in shared');
note '(a2) planted '
  . query('hx_a2', q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'shared'::regnamespace})
  . ' look-alike functions, '
  . query('hx_a2',
	q{SELECT count(*) FROM pg_operator WHERE oprnamespace = 'shared'::regnamespace})
  . ' operators in shared';
($rc, $out, $err) = run_as(undef, 'hx_a2',
	'SET search_path = shared, pg_catalog; CREATE EXTENSION ulid SCHEMA shared;');
installed_clean('(a2)', 'hx_a2', 'shared', 'shared.calls', $rc, $err,
	'CREATE EXTENSION ulid SCHEMA shared next to the look-alikes',
	'shared, pg_catalog, public', 'exercising everything with shared first');

# ---------------------------------------------------------------------------------------------
note '(b) trusted install by ulid_hx_owner (CREATE on the database only, not a superuser)';
must(
	sql_ok(
		undef, 'hx_b', 'GRANT CREATE ON DATABASE hx_b TO ulid_hx_owner;
    CREATE SCHEMA victim AUTHORIZATION ulid_hx_user'),
	'(b) CREATE on hx_b granted to ulid_hx_owner; schema victim of ulid_hx_user');
is(query('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'ulid_hx_owner'}),
	'f', '(b) ulid_hx_owner is not a superuser');
denied('(b) a role without CREATE on the database cannot install it',
	'ulid_hx_nobody', 'hx_b', 'CREATE EXTENSION ulid', 'permission denied');
must(sql_ok('ulid_hx_owner', 'hx_b', 'CREATE SCHEMA owned; CREATE SCHEMA plant;'),
	'(b) ulid_hx_owner makes its schemas owned and plant');

# install_denied(NAME, SCHEMA): ulid_hx_owner has no CREATE on SCHEMA and must not get ulid's
# objects into it (PostgreSQL itself does not check the target schema, and a trusted script runs as
# the bootstrap superuser: the script has to refuse). Cleans up when it wrongly succeeds.
sub install_denied
{
	my ($name, $schema) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my ($rc, $out, $err) =
	  run_as('ulid_hx_owner', 'hx_b', "CREATE EXTENSION ulid SCHEMA $schema");
	if ($rc == 0)
	{
		fail($name);
		diag(   "$name: CREATE EXTENSION ulid SCHEMA $schema succeeded for ulid_hx_owner, which has no CREATE on $schema ("
			  . query(
				'hx_b',
				q{SELECT count(*) FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e'}
			  ) . ' objects created there as the bootstrap superuser)');
		query('hx_b', 'DROP EXTENSION ulid');
		return;
	}
	like(first_error($err), qr/permission denied|must have/, $name);
	return;
}
install_denied('(b) it cannot install into pg_catalog', 'pg_catalog');
# public: no CREATE for everybody from PostgreSQL 15 on; up to 14 everybody may create there, and
# so may the installing role (the guard follows the privilege, not the schema's name).
if (query('hx_b', q{SELECT has_schema_privilege('ulid_hx_owner', 'public', 'CREATE')}) eq 't')
{
	is(query('hx_b', q{SELECT current_setting('server_version_num')::int < 150000}),
		't', '(b) public is writable by everybody only before PostgreSQL 15');
	note '(b) ulid_hx_owner may create in public on this major: installing there is allowed, not checked';
}
else
{
	install_denied('(b) ... nor into public (no CREATE there for everybody since PostgreSQL 15)',
		'public');
}
install_denied("(b) ... nor into another role's schema", 'victim');

# Look-alikes in its own schemas that would make it superuser if the superuser-run script called one.
ok( sql_ok('ulid_hx_owner', 'hx_b', plant_sql('owned', 'plant.calls', 'false', 'ulid_hx_owner')),
	'(b) ulid_hx_owner planted escalating look-alikes in its schema');
note '(b) ulid_hx_owner planted '
  . query('hx_b', q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'owned'::regnamespace})
  . ' escalating look-alike functions and '
  . query('hx_b', q{SELECT count(*) FROM pg_operator WHERE oprnamespace = 'owned'::regnamespace})
  . ' operators in its schema';
($rc, $out, $err) = run_as(
	'ulid_hx_owner', 'hx_b', 'CREATE TEMP TABLE ulid (x int);
                           SET search_path = owned, pg_temp, pg_catalog;
                           CREATE EXTENSION ulid SCHEMA owned;');
is($rc,  0,  '(b) CREATE EXTENSION ulid SCHEMA owned as ulid_hx_owner: exit status');
is($err, '', '(b) ... and it printed nothing on stderr');
cmp_num(planted_calls('hx_b', 'plant.calls'),
	'==', 0, '(b) look-alike calls logged during the trusted install');
is(query('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'ulid_hx_owner'}),
	'f', '(b) ulid_hx_owner is still not a superuser');
check_catalog('(b)', 'hx_b', 'owned');
is(query('hx_b', q{SELECT extowner::regrole FROM pg_extension WHERE extname = 'ulid'}),
	'ulid_hx_owner', '(b) the extension is owned by ulid_hx_owner');
is( query(
		'hx_b', q{SELECT string_agg(DISTINCT owner, ',') FROM (
    SELECT pg_get_userbyid(p.proowner) AS owner FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
        JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e'
    UNION ALL SELECT pg_get_userbyid(t.typowner) FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
        JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e'
    UNION ALL SELECT pg_get_userbyid(o.oprowner) FROM pg_operator o JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid
        JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e'
    UNION ALL SELECT pg_get_userbyid(c.opcowner) FROM pg_opclass c JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass AND d.objid = c.oid
        JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid' WHERE d.deptype = 'e') s}
	),
	query('postgres', 'SELECT rolname FROM pg_roles WHERE oid = 10'),
	'(b) owners of the member functions, type, operators and operator classes: the bootstrap superuser only'
);

($rc, $err) = exercise('hx_b', 'owned, pg_catalog', 'ulid_hx_owner');
is($rc, 0, '(b) ulid_hx_owner uses the type, indexes, casts and aggregates: exit status');
is($err, '', '(b) ... and no look-alike WARNING');
must(sql_ok(undef, 'hx_b', 'GRANT USAGE ON SCHEMA owned TO ulid_hx_user'),
	'(b) USAGE on owned granted to ulid_hx_user');
($rc, $out, $err) = run_as('ulid_hx_user', 'hx_b',
	q{SET TimeZone = 'UTC'; SELECT owned.ulid_to_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV'::owned.ulid)});
diag("ulid_hx_user: $err") if $rc != 0;
is($out, '2016-07-30 23:54:10.259+00', '(b) another plain role can use it too');

my $S = 'SET search_path = owned, pg_catalog;';
my @refused = (
	[
		"(b) CREATE FUNCTION ... LANGUAGE C on ulid's own symbol",
		q{CREATE FUNCTION owned.my_eq(ulid, ulid) RETURNS bool AS '$libdir/ulid', 'ulid_eq' LANGUAGE C},
		'permission denied for language c'
	],
	[
		'(b) CREATE OR REPLACE FUNCTION ulid_eq ... LANGUAGE C pointing to another symbol',
		q{CREATE OR REPLACE FUNCTION owned.ulid_eq(ulid, ulid) RETURNS bool AS '$libdir/ulid', 'ulid_ne' LANGUAGE C IMMUTABLE STRICT},
		'permission denied for language c|must be owner'
	],
	[
		'(b) CREATE OR REPLACE FUNCTION ulid_eq ... LANGUAGE sql',
		q{CREATE OR REPLACE FUNCTION owned.ulid_eq(ulid, ulid) RETURNS bool LANGUAGE sql AS 'SELECT true'},
		'must be owner'
	],
	[
		'(b) CREATE OR REPLACE FUNCTION gen_ulid() as a SQL function',
		q{CREATE OR REPLACE FUNCTION owned.gen_ulid() RETURNS ulid LANGUAGE sql AS $$SELECT '00000000000000000000000000'::owned.ulid$$},
		'must be owner'
	],
	[
		'(b) ALTER FUNCTION ulid_eq NOT LEAKPROOF',
		'ALTER FUNCTION owned.ulid_eq(ulid, ulid) NOT LEAKPROOF',
		'must be owner|superuser'
	],
	[
		'(b) ALTER FUNCTION ulid_cmp SECURITY DEFINER',
		'ALTER FUNCTION owned.ulid_cmp(ulid, ulid) SECURITY DEFINER',
		'must be owner'
	],
	[
		'(b) ALTER FUNCTION gen_ulid() RENAME',
		'ALTER FUNCTION owned.gen_ulid() RENAME TO gen_ulid_old',
		'must be owner'
	],
	[
		'(b) ALTER FUNCTION ulid_in OWNER TO itself',
		'ALTER FUNCTION owned.ulid_in(cstring) OWNER TO ulid_hx_owner',
		'must be owner'
	],
	[
		'(b) DROP FUNCTION ulid_hash CASCADE',
		'DROP FUNCTION owned.ulid_hash(ulid) CASCADE',
		'must be owner|extension ulid requires it'
	],
	[
		'(b) ALTER EXTENSION ulid DROP FUNCTION ulid_cmp (detach, then replace)',
		'ALTER EXTENSION ulid DROP FUNCTION owned.ulid_cmp(ulid, ulid)',
		'must be owner'
	],
	[
		'(b) ALTER TYPE ulid SET (SEND = NONE)',
		'ALTER TYPE owned.ulid SET (SEND = NONE)',
		'must be owner|superuser'
	],
	[
		'(b) ALTER OPERATOR = (ulid, ulid) SET (RESTRICT = ...)',
		'ALTER OPERATOR owned.= (ulid, ulid) SET (RESTRICT = neqsel)',
		'must be owner'
	],
	[
		'(b) CREATE TYPE with ulid_in/ulid_out and a shorter length',
		'CREATE TYPE owned.short_t (INPUT = owned.ulid_in, OUTPUT = owned.ulid_out, INTERNALLENGTH = 4)',
		'must be superuser|must be owner|permission denied'
	],
	[
		'(b) CREATE CAST (ulid AS int8) WITHOUT FUNCTION',
		'CREATE CAST (owned.ulid AS int8) WITHOUT FUNCTION',
		'must be owner|must be superuser'
	],
	[
		'(b) CREATE CAST (bytea AS ulid) WITHOUT FUNCTION',
		'CREATE CAST (bytea AS owned.ulid) WITHOUT FUNCTION',
		'must be owner|must be superuser'
	],
	[
		"(b) CREATE OPERATOR CLASS (reversed b-tree over ulid's support functions)",
		'CREATE OPERATOR CLASS owned.rev_ops FOR TYPE owned.ulid USING btree AS
        OPERATOR 1 owned.>, OPERATOR 3 owned.=, OPERATOR 5 owned.<, FUNCTION 1 owned.ulid_cmp(owned.ulid, owned.ulid)',
		'must be superuser'
	]);
denied($_->[0], 'ulid_hx_owner', 'hx_b', "$S $_->[1]", $_->[2]) for @refused;
denied('(b) LOAD the library', 'ulid_hx_owner', 'hx_b', q{LOAD 'ulid'},
	'access to library .* is not allowed|permission denied');
denied('(b) ALTER EXTENSION ulid SET SCHEMA pg_catalog',
	'ulid_hx_owner', 'hx_b', 'ALTER EXTENSION ulid SET SCHEMA pg_catalog',
	'permission denied|cannot move');

my $internal_members = q{
    FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
    WHERE d.deptype = 'e' AND 'internal'::regtype = ANY (p.proargtypes::oid[])};
my ($ninternal, $nonstrict) = split / /,
  query('hx_b',
	q{SELECT count(*) || ' ' || coalesce(string_agg(p.oid::regprocedure::text, ', ') FILTER (WHERE NOT p.proisstrict), '-')}
	  . $internal_members), 2;
is($nonstrict, '-',
	'(b) member functions taking internal that are not STRICT (of ' . ($ninternal // '?') . ')');
my $calls = query('hx_b',
	q{SELECT string_agg(p.oid::regprocedure::text, ', ' ORDER BY 1)} . $internal_members);
# Each must be impossible to call from SQL (no value of type internal can be written), or at most
# return NULL for NULL (STRICT: the C code is never entered).
my $uncallable = 0;
for my $fn (
	split /\n/,
	query('hx_b',
		q{SELECT format('owned.%I(%s)', p.proname, array_to_string(array_fill('NULL'::text, ARRAY[p.pronargs]), ', '))}
		  . $internal_members))
{
	next if $fn eq '';
	my ($rc2, $r, $call_err) = run_as('ulid_hx_owner', 'hx_b', "$S SELECT ($fn) IS NULL");
	if ($rc2 == 0)
	{
		$uncallable++ if $r eq 't';
	}
	elsif ($call_err =~ /does not exist|cannot cast|cannot accept/)
	{
		$uncallable++;
	}
}
cmp_num($uncallable, '==', $ninternal // -1,
	"(b) of those, not callable from SQL (no internal value can be written) or NULL for NULL ($calls)");
denied(q{(b) making a non-NULL internal value in SQL ('x'::internal)},
	'ulid_hx_owner', 'hx_b', qq{$S SELECT owned.ulid_recv('x'::internal)},
	'cannot accept a value of type internal|cannot cast');
denied(
	'(b) ... or through a function that returns internal',
	'ulid_hx_owner', 'hx_b',
	qq{$S SELECT owned.ulid_sortsupport(brin_minmax_opcinfo('x'::internal))},
	'cannot accept a value of type internal|cannot cast');
cmp_num(planted_calls('hx_b', 'plant.calls'),
	'==', 0, '(b) look-alike calls logged after all of (b)');
is(query('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'ulid_hx_owner'}),
	'f', '(b) ulid_hx_owner is still not a superuser at the end');
ok(sql_ok('ulid_hx_owner', 'hx_b', 'DROP EXTENSION ulid'),
	'(b) the owner can drop the extension again');

note 'hostile_sql took ' . (time - $started) . ' s';
$node->stop;

done_testing();
