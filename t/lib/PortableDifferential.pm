# The differential checks of the portable edition against the native extension, in one database of
# a node: one place for them, called by t/260_portable_differential.pl (the loose file,
# portable/ulid_portable.sql) and by t/180_pg_tle.pl (the pg_tle form, portable/ulid_portable_tle.sql
# then CREATE EXTENSION ulid_portable, on its node that preloads pg_tle).
#
#   PortableDifferential::run(node => NODE, db => DB, su => SUPERUSER, form => 'loose' | 'tle',
#                              work => DIR)
#
# DB exists (the pg_tle form: pg_tle may already be created in it); the native extension and
# pgcrypto are installed for the server. The checks are t/260_portable_differential.pl's header's.
# The pg_tle form differs where the bash suite's ULID_PORTABLE_FORM=tle did: the installer is in
# pgtle_admin; pgcrypto, which the extension requires, is created before it (so the check without
# pgcrypto is t/180's: CREATE EXTENSION refuses); a re-run is the registration again and ALTER
# EXTENSION ... UPDATE; from 16 on pgcrypto cannot move while the extension requires it.
package PortableDifferential;

use strict;
use warnings;

use Test::More;
use PostgreSQL::Test::Utils;
use UlidTest;

my $PORTABLE = 'portable/ulid_portable.sql';
my $TLE      = 'portable/ulid_portable_tle.sql';

my $FIPS_PLAIN = '00112233-4455-6677-8899-aabbccddeeff';
my $K128       = '\x000102030405060708090a0b0c0d0e0f';
my $K256       = '\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
my $C128       = '69c4e0d8-6a7b-0430-d8cd-b78070b4c55a';
my $C256       = '8ea2b7ca-5167-45bf-eafc-49904b496089';

# the error catcher both editions' errors are compared with: "SQLSTATE | message | DETAIL"
my $ERR_FUNCTION = <<'SQL';
CREATE FUNCTION err(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE s text; m text; d text;
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL;
    RETURN s || ' | ' || m || ' | ' || coalesce(d, '');
END $$;
SQL

sub run
{
	my (%a)  = @_;
	my $node = $a{node};
	my $DB   = $a{db};
	my $su   = $a{su};
	my $form = $a{form};
	my $work = $a{work};
	my $tle  = $form eq 'tle';
	my $INSTALLER = 'portable_installer';
	my $APP       = 'portable_app';
	my $CRYPTO    = 'crypto_pd';

	# psql_in(ROLE, DB, SQL, [extra params], ENV): psql (-XAtq) as ROLE in DB, SQL on its standard
	# input, ENV a hash of environment variables for it; (exit status, stdout, stderr), never dies
	my $psql_in = sub {
		my ($role, $db, $sql, $extra, $env) = @_;
		local %ENV = (%ENV, %{ $env // {} });
		my ($rc, $out, $err) = $node->psql(
			$db, $sql,
			extra_params  => [ '-U', $role, @{ $extra // [] } ],
			on_error_stop => 1);
		return ($rc, $out // '', $err // '');
	};
	# q(SQL, ENV): the superuser's output in DB; '' and the error as a diagnostic on an error
	my $q = sub {
		my ($sql, $env) = @_;
		my ($rc, $out, $err) = $psql_in->($su, $DB, $sql, [], $env);
		if ($rc != 0)
		{
			diag("query failed: $err");
			return '';
		}
		return $out;
	};
	# q_ok(SQL): true when SQL ran without an error as the superuser in DB
	my $q_ok = sub {
		my ($rc, $out, $err) = $psql_in->($su, $DB, $_[0]);
		diag("query failed: $err") if $rc != 0;
		return $rc == 0;
	};
	# as_role(ROLE, SQL): ROLE's output in DB
	my $as_role = sub {
		my ($role, $sql) = @_;
		my ($rc, $out, $err) = $psql_in->($role, $DB, $sql);
		diag("$role: $err") if $rc != 0;
		return $rc == 0 ? $out : '';
	};
	# session(SQL, ENV): one session of the superuser's in DB that goes on after errors (VERBOSITY
	# as SQL sets it): its stdout and stderr
	my $session = sub {
		my ($sql, $env, $db) = @_;
		local %ENV = (%ENV, %{ $env // {} });
		my ($rc, $out, $err) = $node->psql(
			$db // $DB, $sql,
			extra_params  => [ '-U', $su ],
			on_error_stop => 0);
		return ($out // '', $err // '');
	};
	# install_into(DB, ROLE, ENV): the edition into DB as ROLE; the pg_tle form first creates pg_tle
	# in DB as the superuser; (true when it went without an error, psql's stdout and stderr)
	my $install_into = sub {
		my ($db, $role, $env) = @_;
		my ($all, $rc, $out, $err) = ('');
		if ($tle)
		{
			($rc, $out, $err) =
			  $psql_in->($su, $db, 'CREATE EXTENSION IF NOT EXISTS pg_tle', [], $env);
			$all .= "$out\n$err";
			return (0, $all) if $rc != 0;
			($rc, $out, $err) = $psql_in->($role, $db, '', [ '-f', $TLE ], $env);
			$all .= "$err";
			return (0, $all) if $rc != 0;
			($rc, $out, $err) =
			  $psql_in->($role, $db, 'CREATE EXTENSION ulid_portable CASCADE', [], $env);
			$all .= "$out\n$err";
		}
		else
		{
			($rc, $out, $err) = $psql_in->($role, $db, '', [ '-f', $PORTABLE ], $env);
			$all .= "$out\n$err";
		}
		return ($rc == 0, $all);
	};
	# install_recipe(FILE): the install as docs/portable.md shows it: the recipe FILE of test/suites/recipes/,
	# verbatim, as the installer
	my $install_recipe = sub {
		local $ENV{APP_DB} =
		  'host=' . $node->host . ' port=' . $node->port . " dbname=$DB user=$INSTALLER";
		my ($rc, $out) = run_cmd('bash', '-euo', 'pipefail', "test/suites/recipes/$_[0]");
		diag($out) if $rc != 0;
		return $rc == 0;
	};
	my $version_num = sub { return $q->('SHOW server_version_num') };

	note 'setup';
	note $q->('SELECT version()');
	must($q_ok->('CREATE EXTENSION IF NOT EXISTS ulid'), 'native extension');
	must(
		$q_ok->(
			"CREATE ROLE $INSTALLER LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
             CREATE ROLE $APP LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
             GRANT CREATE ON DATABASE \"$DB\" TO $INSTALLER"),
		'roles: installer (CREATE on the database only) and an application role (nothing)');
	is($q->("SELECT rolsuper FROM pg_roles WHERE rolname = '$INSTALLER'"),
		'f', 'installer is not a superuser');
	my $refusal;
	if ($tle)
	{
		note 'the pg_tle form: '
		  . $q->("SELECT extversion FROM pg_extension WHERE extname = 'pg_tle'");
		must(
			$q_ok->(
				"CREATE EXTENSION IF NOT EXISTS pg_tle; GRANT pgtle_admin TO $INSTALLER;
                 CREATE SCHEMA $CRYPTO; CREATE EXTENSION pgcrypto SCHEMA $CRYPTO;
                 GRANT USAGE ON SCHEMA $CRYPTO TO $APP"),
			"pg_tle; the installer in pgtle_admin; pgcrypto in schema $CRYPTO, USAGE granted to the application role"
		);
		must($install_recipe->('portable_tle_install.sh'),
			'register and create as the installer (recipes/portable_tle_install.sh)');
		my ($rc, $out, $err) = $psql_in->(
			$INSTALLER, $DB, '',
			[ '-f', $TLE, '-c', 'ALTER EXTENSION ulid_portable UPDATE' ]);
		diag($err) if $rc != 0;
		must($rc == 0, 'register again (re-runnable), and ALTER EXTENSION ... UPDATE');
		$refusal =
		  'ERROR:  schema ulid_portable exists and is not owned by the role creating the extension';
	}
	else
	{
		must($install_recipe->('portable_install.sh'),
			'install as the installer (recipes/portable_install.sh)');
		my ($rc, $out, $err) = $psql_in->($INSTALLER, $DB, '', [ '-f', $PORTABLE ]);
		diag($err) if $rc != 0;
		must($rc == 0, 'install again (re-runnable)');
		$refusal = 'ERROR:  schema ulid_portable exists and is not owned by the installing role';
	}
	{
		my $guard = "${DB}_guard";
		my $out   = '';
		if (   $q_ok->("CREATE DATABASE \"$guard\"")
			&& ($psql_in->($su, $guard,
					"CREATE SCHEMA ulid_portable AUTHORIZATION $APP; GRANT CREATE ON DATABASE \"$guard\" TO $INSTALLER"
					. ($tle ? "; GRANT pgtle_admin TO $INSTALLER" : '')))[0] == 0)
		{
			$out = ($install_into->($guard, $INSTALLER))[1];
		}
		my $count = ($psql_in->(
				$su, $guard,
				"SELECT count(*) FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace"))[1];
		$q->("DROP DATABASE \"$guard\"");
		like($out, qr/\Q$refusal\E/, 'a schema ulid_portable owned by another role is refused');
		is($count, '0', '... and nothing is created in it');
	}

	note 'catalog: owner, language, security, labels';
	is($q->("SELECT nspowner::regrole FROM pg_namespace WHERE nspname = 'ulid_portable'"),
		$INSTALLER, 'schema ulid_portable owned by the installer');
	is( $q->(
			"SELECT count(*) FILTER (WHERE proowner::regrole::text <> '$INSTALLER' OR l.lanname NOT IN ('sql', 'plpgsql')
                                     OR prosecdef OR proconfig IS NOT NULL)
             FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
             WHERE pronamespace = 'ulid_portable'::regnamespace"),
		'0',
		'functions: owner, SQL/PL/pgSQL only, SECURITY INVOKER, no SET');
	is( $q->(
			"SELECT string_agg(p.oid::regprocedure || ' ' || provolatile::text || proisstrict::int || proparallel::text, ', ' ORDER BY 1)
             FROM pg_proc p WHERE pronamespace = 'ulid_portable'::regnamespace
             AND proname IN ('gen_ulid', 'gen_random_ulid', 'ulid_encode', 'ulid_decode', 'ulid_to_timestamp',
                             'ulid_min', 'ulid_max')"),
		'ulid_portable.gen_random_ulid() v0s, ulid_portable.gen_ulid() v0u, '
		  . 'ulid_portable.gen_ulid(timestamp with time zone) v1s, ulid_portable.ulid_decode(text) i1s, '
		  . 'ulid_portable.ulid_encode(uuid) i1s, ulid_portable.ulid_max(timestamp with time zone) i1s, '
		  . 'ulid_portable.ulid_min(timestamp with time zone) i1s, ulid_portable.ulid_to_timestamp(uuid) i1s',
		'public functions: volatility, strictness, parallel label');
	is( $as_role->(
			$APP,
			'SELECT count(DISTINCT ulid_portable.ulid_decode(ulid_portable.ulid_encode(ulid_portable.gen_ulid())))
                    + count(DISTINCT ulid_portable.gen_random_ulid()) FROM generate_series(1, 100)'),
		'200',
		'the application role (no privileges) generates, encodes and decodes');
	{
		my ($out, $err) = $session->(
			"CREATE TEMP TABLE v (n serial, id uuid);
             INSERT INTO v (id) SELECT ulid_portable.gen_ulid() FROM generate_series(1, 10);
             GRANT SELECT ON v TO $APP;
             SET ROLE $APP;
             SELECT ulid_portable.gen_ulid() > (SELECT max(id::text)::uuid FROM v);
             RESET ROLE;
             INSERT INTO v (id) SELECT ulid_portable.gen_ulid();
             SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS back FROM v) s WHERE back");
		is(join(' ', split /\n/, $out . $err),
			't 0', 'one session switching roles (SET ROLE) keeps one increasing state');
	}

	note '100,000 random values + extremes: byte-identical to the native extension';
	must(
		$q_ok->(
			"CREATE TABLE diff_values AS
             SELECT g, u, t, ts FROM (
                 SELECT g, CASE g WHEN 1 THEN '00000000-0000-0000-0000-000000000000'::uuid
                                  WHEN 2 THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
                                  WHEN 3 THEN '00000000-0000-ffff-ffff-ffffffffffff'::uuid
                                  WHEN 4 THEN 'ffffffff-ffff-0000-0000-000000000000'::uuid
                                  ELSE gen_random_uuid() END AS u
                 FROM generate_series(1, 100000) g) s,
             LATERAL (SELECT CASE g % 4 WHEN 0 THEN u::ulid::text
                                        WHEN 1 THEN lower(u::ulid::text)
                                        WHEN 2 THEN translate(u::ulid::text, '10', 'IO')
                                        ELSE translate(lower(u::ulid::text), '10', 'lo') END) AS x(t),
             -- a time in the value's millisecond (0-999 us into it), and one anywhere in the ULID range
             LATERAL (SELECT CASE WHEN g % 2 = 0 THEN ulid_to_timestamp(u::ulid) + (g % 1000) * interval '1 microsecond'
                                  ELSE timestamptz '1970-01-01 00:00:00+00'
                                       + (random() * 281474976710.655) * interval '1 second' END) AS y(ts)"),
		'values');
	is( $q->(
			"SELECT count(*) || ' rows: '
                    || count(*) FILTER (WHERE ulid_portable.ulid_encode(u) IS DISTINCT FROM u::ulid::text) || ' '
                    || count(*) FILTER (WHERE ulid_portable.ulid_decode(t) IS DISTINCT FROM t::ulid::uuid) || ' '
                    || count(*) FILTER (WHERE ulid_portable.ulid_decode(ulid_portable.ulid_encode(u)) IS DISTINCT FROM u) || ' '
                    || count(*) FILTER (WHERE ulid_portable.ulid_to_timestamp(u) IS DISTINCT FROM ulid_to_timestamp(u::ulid)) || ' '
                    || count(*) FILTER (WHERE ulid_portable.ulid_min(ts) IS DISTINCT FROM ulid_min(ts)::uuid) || ' '
                    || count(*) FILTER (WHERE ulid_portable.ulid_max(ts) IS DISTINCT FROM ulid_max(ts)::uuid) || ' '
                    || count(*) FILTER (WHERE ulid_portable.ulid_ms(ulid_portable.gen_ulid(ts))
                                              IS DISTINCT FROM ulid_portable.ulid_ms(gen_ulid(ts)::uuid))
             FROM diff_values"),
		'100000 rows: 0 0 0 0 0 0 0',
		'encode, decode (canonical, lower, aliases), timestamps, bounds: differences');
	is( $q->(
			"SELECT bool_and(x) FROM (VALUES
               ((SELECT count(*) > 10000 FROM diff_values WHERE t ~ '[a-z]')),
               ((SELECT count(*) > 10000 FROM diff_values WHERE t ~ '[IlOo]')),
               ((SELECT count(*) = 1 FROM diff_values WHERE t = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ')),
               ((SELECT count(*) > 10000 FROM diff_values WHERE ulid_to_timestamp(ts::ulid) > timestamptz '6429-01-01')),
               ((SELECT count(*) > 10000 FROM diff_values WHERE ts < timestamptz '6429-01-01'))) v(x)"),
		't',
		'the data set has every case: lowercase, aliases, extremes, times before/after 2^47 ms');
	is( $q->(
			'SELECT bool_and(abs(extract(epoch FROM ulid_portable.ulid_to_timestamp(id) - now())) < 60)
                    AND count(DISTINCT get_byte(uuid_send(id), 6) >> 4) > 1
             FROM (SELECT ulid_portable.gen_random_ulid() id FROM generate_series(1, 500)
                   UNION ALL SELECT ulid_portable.gen_ulid() FROM generate_series(1, 500)) s'),
		't',
		'gen_random_ulid() and gen_ulid(): the current millisecond, version bits not forced');

	note 'bad input: the same SQLSTATE, message and DETAIL as the native extension';
	must($q_ok->($ERR_FUNCTION), 'error catcher');
	# (raw UTF-8 bytes in this file: the database is UTF8)
	must(
		$q_ok->(
			<<'SQL'),
CREATE TABLE bad_text (label text, t text);
INSERT INTO bad_text VALUES
    ('empty', ''), ('1 char', 'A'), ('25 chars', repeat('0', 25)), ('27 chars', repeat('0', 27)),
    ('100 chars', repeat('Z', 100)),
    ('U first', 'U' || repeat('0', 25)), ('U middle', repeat('0', 12) || 'U' || repeat('0', 13)),
    ('u last', repeat('0', 25) || 'u'),
    ('hyphen', '01ARZ3NDEK-TSV4RRFFQ69G5FA'), ('exclamation', repeat('0', 25) || '!'),
    ('quote', repeat('0', 5) || '"' || repeat('0', 20)), ('backslash', repeat('0', 25) || E'\\'),
    ('space inside', repeat('0', 10) || ' ' || repeat('0', 15)), ('leading space', ' ' || repeat('0', 25)),
    ('trailing space', repeat('0', 25) || ' '), ('padded 26 + space', repeat('0', 26) || ' '),
    ('tab', repeat('0', 25) || chr(9)), ('newline', chr(10) || repeat('0', 25)),
    ('control 0x01', repeat('0', 25) || chr(1)), ('DEL 0x7F', chr(127) || repeat('0', 25)),
    ('e-acute, 27 bytes', repeat('0', 25) || 'é'), ('e-acute, 26 bytes', repeat('0', 24) || 'é'),
    ('e-acute first, 26 bytes', 'é' || repeat('0', 24)), ('euro, 26 bytes', repeat('0', 23) || '€'),
    ('26 non-ASCII chars', repeat('é', 26)), ('emoji', repeat('0', 22) || '😀'),
    ('first 8', '8' || repeat('0', 25)), ('first Z', 'Z' || repeat('Z', 25)),
    ('first z (lower)', 'z' || repeat('0', 25)), ('first 8 and bad later', '8' || repeat('0', 24) || '!'),
    ('bad first, also 8', '!8' || repeat('0', 24)), ('max + U', '7ZZZZZZZZZZZZZZZZZZZZZZZZU')
SQL
		'bad strings');
	is( $q->(
			"SELECT count(*) || ' of ' || (SELECT count(*) FROM bad_text) || ': ' || coalesce(string_agg(label, ', '), '')
             FROM bad_text WHERE err(format('SELECT %L::ulid', t)) IS DISTINCT FROM err(format('SELECT ulid_portable.ulid_decode(%L)', t))"
		),
		'0 of 32: ',
		'bad strings: native and portable differ on');
	is( $q->(
			"SELECT count(*) FROM bad_text WHERE err(format('SELECT %L::ulid', t)) !~ '^22P02 \\| invalid input syntax for type ulid: .* \\| .+\$'"
		),
		'0',
		'bad strings: every native error is 22P02 with a DETAIL');
	note 'e.g. '
	  . $q->(
		"SELECT err(format('SELECT ulid_portable.ulid_decode(%L)', t)) FROM bad_text WHERE label = 'e-acute, 26 bytes'"
	  );
  SKIP:
	{
		my ($rc) = $psql_in->(
			$su, $DB,
			"CREATE COLLATION nd (provider = icu, locale = 'und-u-ks-level2', deterministic = false)");
		skip 'no ICU here: the nondeterministic-collation check is skipped', 1 if $rc != 0;
		is( $q->(
				"SELECT (SELECT count(*) FROM diff_values WHERE g <= 1000 AND ulid_portable.ulid_decode(t COLLATE nd) IS DISTINCT FROM t::ulid::uuid)
                        || ' ' || count(*) FROM bad_text
                 WHERE err(format('SELECT %L::text COLLATE nd::ulid', t)) IS DISTINCT FROM err(format('SELECT ulid_portable.ulid_decode(%L COLLATE nd)', t))"
			),
			'0 0',
			'input with a nondeterministic collation: values and bad strings as native');
	}
	must(
		$q_ok->(
			"CREATE TABLE bad_ts (label text, ts timestamptz);
             INSERT INTO bad_ts VALUES ('infinity', 'infinity'), ('-infinity', '-infinity'),
                 ('1 us before 1970', '1969-12-31 23:59:59.999999+00'), ('4713 BC', '4714-11-24 00:00:00+00 BC'),
                 ('1 ms after the last', '10889-08-02 05:31:50.656+00'), ('294276 AD', '294276-12-31 23:59:59.999999+00'),
                 ('first (ok)', '1970-01-01 00:00:00+00'), ('last (ok)', '10889-08-02 05:31:50.655999+00'),
                 ('2^47 ms (ok)', '6429-10-17 02:45:55.328+00')"),
		'bad and edge timestamps');
	is( $q->(
			"SELECT count(*) || ': ' || coalesce(string_agg(label || ' ' || f, ', '), '')
             FROM bad_ts, unnest(array['ulid_min', 'ulid_max']) f
             WHERE err(format('SELECT %s(%L::timestamptz)', f, ts))
                   IS DISTINCT FROM err(format('SELECT ulid_portable.%s(%L::timestamptz)', f, ts))
                OR (label LIKE '%(ok)' AND (ulid_portable.ulid_min(ts) IS DISTINCT FROM ulid_min(ts)::uuid
                                            OR ulid_portable.ulid_max(ts) IS DISTINCT FROM ulid_max(ts)::uuid))"
		),
		'0: ',
		'timestamps: native and portable (ulid_min, ulid_max, gen_ulid(ts)) differ on');
	is( $q->(
			"SELECT count(*) FROM bad_ts WHERE regexp_replace(err(format('SELECT gen_ulid(%L::timestamptz)', ts)), '^no error\$', 'ok')
             IS DISTINCT FROM regexp_replace(err(format('SELECT ulid_portable.gen_ulid(%L::timestamptz)', ts)), '^no error\$', 'ok')"
		),
		'0',
		'timestamps: gen_ulid(ts) errors equal');
	is( $q->(
			"SELECT count(*) FROM bad_ts WHERE err(format('SELECT ulid_portable.ulid_max(%L::timestamptz)', ts)) LIKE '22008 | timestamp out of range for ulid | %A ULID holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.'"
		),
		'6',
		'timestamps: 6 of 9 are 22008 errors');

	# Other server encodings: a non-ASCII character is one byte in LATIN1, SQL_ASCII takes any
	# byte, EUC_JP is multibyte but not UTF-8 (chr() of a byte above 127 is an error there).
	my %nonascii = (LATIN1 => 'é', SQL_ASCII => 'é', EUC_JP => 'あ');
	for my $enc (qw(LATIN1 SQL_ASCII EUC_JP))
	{
		my $x   = $nonascii{$enc};
		my $edb = "${DB}_" . lc $enc;
		unless ($q_ok->(
				"CREATE DATABASE \"$edb\" TEMPLATE template0 ENCODING '$enc' LC_COLLATE 'C' LC_CTYPE 'C'"))
		{
			fail("$enc: database not created");
			next;
		}
		my ($rc, $out0, $err0) = $psql_in->($su, $edb, 'CREATE EXTENSION ulid');
		my ($installed, $text) = $rc == 0 ? $install_into->($edb, $su) : (0, $err0);
		diag($text) unless $installed;
		my $utf8 = { PGCLIENTENCODING => 'UTF8' };
		my ($rc2, $out, $err) = $psql_in->(
			$su, $edb, $ERR_FUNCTION . "
            SELECT (SELECT count(*) FROM (SELECT gen_random_uuid() u FROM generate_series(1, 1000)) s
                    WHERE ulid_portable.ulid_encode(u) <> u::ulid::text OR ulid_portable.ulid_decode(lower(u::ulid::text)) <> u)
                   || ' ' ||
                   (SELECT count(*) FROM unnest(ARRAY[repeat('0', 25) || '$x', repeat('0', 24) || '$x', '$x' || repeat('0', 25),
                                                      repeat('0', 23) || '$x', repeat('$x', 26), repeat('0', 25) || chr(127),
                                                      repeat('0', 25) || '!']) t
                    WHERE err(format('SELECT %L::ulid', t)) IS DISTINCT FROM err(format('SELECT ulid_portable.ulid_decode(%L)', t)))",
			[], $utf8);
		diag($err) if $rc2 != 0;
		is((split /\n/, $out)[-1] // '',
			'0 0', "$enc: 1,000 values and 7 bad strings with non-ASCII bytes: differences");
		note "$enc: "
		  . ($psql_in->(
				$su, $edb,
				"SELECT err(format('SELECT ulid_portable.ulid_decode(%L)', '$x' || repeat('0', 24)))",
				[], $utf8))[1];
		$q->("DROP DATABASE \"$edb\"");
	}

	# standard_conforming_strings = off (backslashes in plain literals are escapes) at install and
	# use; 19 no longer has that mode: there the setting is refused, which is checked instead.
	{
		my $sdb = "${DB}_scs";
		my $made = $q_ok->("CREATE DATABASE \"$sdb\"")
		  && ($psql_in->($su, $sdb, 'CREATE EXTENSION ulid'))[0] == 0;
		diag("$sdb: not made, or without the native extension") unless $made;
		my $scs_off = { PGOPTIONS => '-c standard_conforming_strings=off -c escape_string_warning=off' };
		if ($version_num->() >= 190000)
		{
			my ($rc, $out, $err) =
			  $psql_in->($su, $sdb, 'SELECT 1', [], { PGOPTIONS => '-c standard_conforming_strings=off' });
			like("$out\n$err", qr/non-standard string literals are not supported/,
				'19: standard_conforming_strings = off is refused');
		}
		else
		{
			my $text = ($install_into->($sdb, $su, $scs_off))[1];
			my @left = grep { /\S/ && !/already exists|installing required extension/ } split /\n/,
			  $text;
			my ($rc, $out, $err) = $psql_in->(
				$su, $sdb,
				"SELECT count(*) FROM (SELECT gen_random_uuid() u, now() - random() * interval '50 years' ts FROM generate_series(1, 1000)) s
                 WHERE ulid_portable.ulid_encode(u) <> u::ulid::text OR ulid_portable.ulid_decode(lower(u::ulid::text)) <> u
                    OR ulid_portable.ulid_min(ts) <> ulid_min(ts)::uuid OR ulid_portable.ulid_max(ts) <> ulid_max(ts)::uuid",
				[], $scs_off);
			is(join("\n", @left, grep { /\S/ } $out, $err),
				'0', 'standard_conforming_strings = off: install, then 1,000 values and the bounds as native');
		}
		$q->("DROP DATABASE \"$sdb\"");
	}

	note 'gen_ulid(): strictly increasing within a session, across rollbacks';
	{
		# Every value a session is handed (also in transactions rolled back later) is printed, in
		# order. (DISCARD ALL cannot run in a transaction block: that error aborts it, a rollback
		# once more.)
		my ($out, $err) = $session->(<<'SQL');
\set ON_ERROR_STOP 0
-- the first transaction of the session (it creates the state) is rolled back
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 50);
ROLLBACK;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 2000);
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 500);
ROLLBACK;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 500);
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
SAVEPOINT a;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
ROLLBACK TO SAVEPOINT a;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
SAVEPOINT b;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
SELECT 1 / 0;
ROLLBACK TO SAVEPOINT b;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 200);
COMMIT;
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
SELECT 1 / 0;
ROLLBACK;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
-- values handed out inside exception blocks that are rolled back (plpgsql variables survive that)
CREATE FUNCTION pg_temp.in_rolled_back_blocks(n int) RETURNS SETOF uuid LANGUAGE plpgsql AS $$
DECLARE v uuid;
BEGIN
    FOR i IN 1 .. n LOOP
        BEGIN
            v := ulid_portable.gen_ulid();
            RAISE EXCEPTION 'roll back this block';
        EXCEPTION WHEN raise_exception THEN RETURN NEXT v;
        END;
    END LOOP;
END $$;
SELECT pg_temp.in_rolled_back_blocks(100);
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
DISCARD SEQUENCES;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
DISCARD TEMP;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
BEGIN;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
DISCARD ALL;
ROLLBACK;
DISCARD ALL;
SELECT ulid_portable.gen_ulid() FROM generate_series(1, 100);
SQL
		my @values = grep { /^[0-9a-f]{8}-/ } split /\n/, $out;
		is(scalar @values, 4850, 'values printed by the session');
		my %seen;
		my @sorted = grep { !$seen{$_}++ } sort @values;
		is_deeply(\@values, \@sorted,
			'strictly increasing in the order handed out (sorted without duplicates: the same list)');
		my $errors = grep { /ERROR/ } split /\n/, $err;
		is($errors, 3,
			'errors in the session script (2 divisions by zero, DISCARD ALL in a transaction)');
	}
	{
		my ($out, $err) =
		  $session->("\\set VERBOSITY verbose\nBEGIN READ ONLY; SELECT ulid_portable.gen_ulid();");
		like(
			"$out\n$err",
			qr/ERROR:  25006: cannot execute CREATE SEQUENCE in a read-only transaction/,
			'a session\'s first gen_ulid() in a read-only transaction: 25006 (creating its state needs a write)'
		);
		($out, $err) = $session->(
			'SELECT ulid_portable.gen_ulid() IS NOT NULL;
             BEGIN READ ONLY; SELECT ulid_portable.gen_ulid() IS NOT NULL; COMMIT;');
		is(join(' ', split /\n/, $out . $err),
			't t', 'after a first call, read-only transactions generate (setval of a temporary sequence)');
	}

	note 'gen_ulid(): increment, carry and overflow from planted states';
	# HI and LO as bigint, as the bash suite's 64-bit shell arithmetic made them (signed, wrapping):
	# ms 2^47 + 5 is far in the future, so the next call increments
	my ($fut5, $fut6, $fut_max);
	{
		use integer;
		my $fut = (1 << 47) + 5;
		$fut5    = $fut << 16 | 5;
		$fut6    = $fut << 16 | 6;
		$fut_max = $fut << 16 | 65535;
	}
	my $plant = sub {
		my ($hi, $lo) = @_;
		return "SELECT ulid_portable.gen_ulid() \\g /dev/null\n"
		  . "SELECT setval('pg_temp.ulid_portable_hi', $hi, true), setval('pg_temp.ulid_portable_lo', $lo, true) \\g /dev/null\n";
	};
	my $hex_of = sub { return $q->("SELECT encode(int8send($_[0]) || int8send($_[1]), 'hex')::uuid") };
	{
		my ($out, $err) = $session->(
			$plant->($fut5, -1) . "SELECT ulid_portable.gen_ulid();\n"
			  . $plant->($fut5, '9223372036854775806')
			  . "SELECT ulid_portable.gen_ulid();\nSELECT ulid_portable.gen_ulid();\n"
			  . $plant->($fut_max, -2)
			  . "SELECT ulid_portable.gen_ulid();
\\set VERBOSITY verbose
SELECT ulid_portable.gen_ulid();
\\set VERBOSITY default
SELECT pg_sequence_last_value('pg_temp.ulid_portable_hi') || ' ' || pg_sequence_last_value('pg_temp.ulid_portable_lo');
SELECT ulid_portable.gen_ulid();
");
		my @lines = split /\n/, $out;
		my $all = "$out\n$err";
		is($lines[0] // '', $hex_of->($fut6, 0),
			'carry: entropy ...05 FFFF FFFF FFFF FFFF + 1 = ...06 0000 0000 0000 0000 (same future ms)');
		is( join(' ', $lines[1] // '', $lines[2] // ''),
			$hex_of->($fut5, '9223372036854775807') . ' '
			  . $hex_of->($fut5, '(-9223372036854775808)::bigint'),
			'2^63 - 2 + 1, then 2^63 - 1 + 1 = 2^63 (the signed step)');
		is($lines[3] // '', $hex_of->($fut_max, -1),
			'the largest entropy of the millisecond is handed out');
		like($all, qr/ERROR:  54000: ulid entropy overflow within one millisecond/,
			'overflow: SQLSTATE 54000 and the native message');
		like(
			$all,
			qr/DETAIL:  All 2\^80 values after the first ULID of this millisecond were used\./,
			'overflow: native DETAIL');
		like($all, qr/HINT:  Retry in the next millisecond\./, 'overflow: native HINT');
		like($all, qr/\Q$fut_max -1\E/, 'overflow: state unchanged');
		my $n = grep { /ulid entropy overflow/ } split /\n/, $all;
		is($n, 2, 'overflow: the next call fails again (no wrap, no repeat)');
	}

	note 'gen_ulid(): the limits docs/portable.md states';
	{
		# A state an hour ahead of the clock (as after the clock stepped back), then lost with
		# DISCARD TEMP: the next value is below the one handed out before. The wait for the next
		# millisecond protects only the current millisecond.
		my $ahead =
		  $q->('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 3600000');
		my ($out, $err) = $session->(
			$plant->($ahead << 16, 0) . "SELECT ulid_portable.gen_ulid();
DISCARD TEMP;
SELECT ulid_portable.gen_ulid();");
		diag($err) if $err ne '';
		my @lines = split /\n/, $out;
		is( $q->(
				"SELECT '" . ($lines[1] // 'x') . "'::uuid < '" . ($lines[0] // 'x') . "'::uuid"),
			't',
			'a state lost after the clock went back: the next value is lower than an earlier one');
		# The PUBLIC grant lets another role in the same session set the state: here to the
		# largest entropy of a future millisecond, so the session's next call fails with 54000.
		($out, $err) = $session->(
			"SELECT ulid_portable.gen_ulid() \\g /dev/null
SET ROLE $APP;
SELECT setval('pg_temp.ulid_portable_hi', $fut_max, true) \\g /dev/null
SELECT setval('pg_temp.ulid_portable_lo', -1, true) \\g /dev/null
RESET ROLE;
SELECT ulid_portable.gen_ulid();");
		like(
			"$out\n$err",
			qr/ulid entropy overflow within one millisecond/,
			'another role of the session spoils the state: 54000 on the next call');
	}

	note 'gen_ulid(): 8 concurrent sessions';
	must(
		$q_ok->(
			'CREATE TABLE gen_log (n bigserial PRIMARY KEY, pid int NOT NULL, id uuid NOT NULL)'),
		'log table');
	{
		PostgreSQL::Test::Utils::append_to_file(
			"$work/pgbench.sql", <<'SQL');
INSERT INTO gen_log (pid, id) SELECT pg_backend_pid(), ulid_portable.gen_ulid() FROM generate_series(1, 5);
BEGIN;
INSERT INTO gen_log (pid, id) SELECT pg_backend_pid(), ulid_portable.gen_ulid();
ROLLBACK;
SQL
		my ($rc, $out) = run_cmd(
			pg_config_value('--bindir') . '/pgbench', '-n', '-c', '8', '-j', '2', '-t', '400',
			'-f', "$work/pgbench.sql", '-h', $node->host, '-p', $node->port, '-U', $su, $DB);
		ok($rc == 0, 'pgbench: 8 clients x 400 transactions')
		  or diag(join("\n", grep { defined } (split /\n/, $out)[-3 .. -1]));
		# (pgbench 15 and later print failed transactions; before, a failed one aborts its client
		# and pgbench)
		my ($failed) = $out =~ /^number of failed transactions: ([0-9]+)/m;
		is( $q->(
				"SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || count(DISTINCT pid) FROM gen_log")
			  . ' '
			  . ($failed // 0),
			'16000 16000 8 0',
			'rows, distinct ids, sessions, failed transactions');
		cmp_num(
			$q->(
				'SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY pid ORDER BY n) AS back FROM gen_log) s WHERE back'
			),
			'==', 0,
			'rows out of order within a session');
	}

	note 'public ids: ulid_encrypt/ulid_decrypt through pgcrypto, byte-identical to the native ones';
	unless ($tle)    # the pg_tle form requires pgcrypto: made in schema $CRYPTO above
	{
		my $u = $q->('SELECT gen_random_uuid()');
		like(
			$q->(
				"SELECT err(\$q\$SELECT ulid_portable.ulid_encrypt(gen_random_uuid(), '$K128')\$q\$),
                        ulid_portable.ulid_decode(ulid_portable.ulid_encode('$u')) IS NOT NULL"),
			qr/^0A000 \| ulid_portable\.ulid_encrypt\(\) and ulid_decrypt\(\) need the extension pgcrypto.*\|t$/s,
			'without pgcrypto: 0A000 naming it (the rest of the edition is installed and works)');
		# pgcrypto in a schema of its own, not on anybody's search_path (as one managed service
		# does)
		must(
			$q_ok->(
				"CREATE SCHEMA $CRYPTO; CREATE EXTENSION pgcrypto SCHEMA $CRYPTO; GRANT USAGE ON SCHEMA $CRYPTO TO $APP"
			),
			"pgcrypto in schema $CRYPTO, USAGE granted to the application role");
	}
	is( $as_role->(
			$APP,
			"SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K128'), ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K256'),
                    ulid_portable.ulid_decrypt('$C128', '$K128'), ulid_portable.ulid_decrypt('$C256', '$K256')"),
		"$C128|$C256|$FIPS_PLAIN|$FIPS_PLAIN",
		'FIPS-197 C.1 (AES-128) and C.3 (AES-256) from the portable edition, as the application role');
	is( $q->(
			"SELECT ulid_encrypt('$FIPS_PLAIN'::uuid::ulid, '$K128')::uuid, ulid_encrypt('$FIPS_PLAIN'::uuid::ulid, '$K256')::uuid"
		),
		"$C128|$C256",
		'FIPS-197 C.1 and C.3 from the native extension');
	must(
		$q_ok->(
			"CREATE TABLE aes_cases AS
             SELECT i, gen_random_uuid() AS id, $CRYPTO.gen_random_bytes(CASE WHEN i % 2 = 0 THEN 16 ELSE 32 END) AS k
             FROM generate_series(1, 10000) i"),
		'10,000 random ids and keys (half AES-128, half AES-256)');
	is( $q->(
			"SELECT count(*) FILTER (WHERE ulid_portable.ulid_encrypt(id, k) IS DISTINCT FROM ulid_encrypt(id::ulid, k)::uuid)
                    || ' ' || count(*) FILTER (WHERE ulid_portable.ulid_decrypt(id, k) IS DISTINCT FROM ulid_decrypt(id::ulid, k)::uuid)
                    || ' ' || count(*) FILTER (WHERE ulid_portable.ulid_decrypt(ulid_portable.ulid_encrypt(id, k), k) IS DISTINCT FROM id)
                    || ' ' || count(*) FILTER (WHERE length(k) = 16) || ' ' || count(*) FILTER (WHERE length(k) = 32)
             FROM aes_cases"),
		'0 0 0 5000 5000',
		'native and portable differ (encrypt, decrypt of random blocks), round trips failed, keys of each length'
	);
	is( $q->(
			"SELECT count(*) FILTER (WHERE ulid_portable.ulid_decrypt(ulid_portable.ulid_encrypt(id, k), set_byte(k, 0, get_byte(k, 0) # 1)) = id)
                    || ' ' || count(*) FILTER (WHERE ulid_portable.ulid_decrypt(id, set_byte(k, 0, get_byte(k, 0) # 1))
                                                  IS DISTINCT FROM ulid_decrypt(id::ulid, set_byte(k, 0, get_byte(k, 0) # 1))::uuid)
             FROM aes_cases WHERE i <= 1000"),
		'0 0',
		'a wrong key (one bit off) gives another id, in both editions alike');
	is( $q->(
			"SELECT count(*) FILTER (WHERE err(format('SELECT ulid_portable.ulid_encrypt(gen_random_uuid(), %L::bytea)', k))
                                      IS DISTINCT FROM err(format('SELECT ulid_encrypt(gen_random_ulid(), %L::bytea)', k)))
                    || ' ' || count(*) FILTER (WHERE err(format('SELECT ulid_portable.ulid_decrypt(gen_random_uuid(), %L::bytea)', k))
                                      LIKE '22023 | ulid key must be 16 or 32 bytes | The key given is % byte%')
             FROM (SELECT ('\\x' || repeat('ab', n))::bytea AS k FROM unnest(ARRAY[0, 1, 15, 17, 24, 31, 33, 64]) n) s"
		),
		'0 8',
		'keys of 0, 1, 15, 17, 24, 31, 33 and 64 bytes: the native error (22023, message and DETAIL) in both'
	);
	is( $q->(
			"SELECT ulid_portable.ulid_encrypt(NULL, '$K128') IS NULL, ulid_portable.ulid_decrypt('$FIPS_PLAIN', NULL) IS NULL,
                    ulid_encrypt(NULL, '$K128'::bytea) IS NULL, ulid_decrypt('$FIPS_PLAIN'::uuid::ulid, NULL) IS NULL"
		),
		't|t|t|t',
		'NULL id, NULL key: NULL (STRICT), in both');
	is( $q->(
			"SELECT string_agg(p.oid::regprocedure || ' ' || provolatile::text || proisstrict::int || proparallel::text, ', ' ORDER BY 1)
             FROM pg_proc p WHERE pronamespace = 'ulid_portable'::regnamespace AND proname IN ('ulid_encrypt', 'ulid_decrypt')"
		),
		'ulid_portable.ulid_decrypt(uuid,bytea) s1s, ulid_portable.ulid_encrypt(uuid,bytea) s1s',
		'public functions: ulid_encrypt and ulid_decrypt are STABLE (they read the catalog), STRICT, PARALLEL SAFE'
	);
	# an encrypt(bytea, bytea, text) that is not pgcrypto's, first on the path: never called
	must(
		$q_ok->(
			q{CREATE FUNCTION public.encrypt(bytea, bytea, text) RETURNS bytea LANGUAGE sql AS $$ SELECT '\x00'::bytea $$;
              CREATE FUNCTION public.decrypt(bytea, bytea, text) RETURNS bytea LANGUAGE sql AS $$ SELECT '\x00'::bytea $$}
		),
		'a look-alike encrypt() and decrypt() in schema public');
	is( $q->(
			"SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K128')",
			{ PGOPTIONS => "-c search_path=public,$CRYPTO" }),
		$C128,
		'... with it first on the search_path, the portable edition still uses pgcrypto\'s');
	# pgcrypto's owner (an ordinary role where pgcrypto is trusted) adds a function of its own to
	# the extension: not in pgcrypto's schema, and not C: never called
	must(
		$q_ok->(
			q{CREATE SCHEMA aaa_pd;
              CREATE TABLE aaa_pd.calls (n int);
              CREATE FUNCTION aaa_pd.encrypt(bytea, bytea, text) RETURNS bytea LANGUAGE plpgsql AS $$
                  BEGIN INSERT INTO aaa_pd.calls VALUES (1); RETURN '\x00'::bytea; END $$;
              ALTER EXTENSION pgcrypto ADD FUNCTION aaa_pd.encrypt(bytea, bytea, text)}),
		'a look-alike made a member of pgcrypto (ALTER EXTENSION ... ADD FUNCTION)');
	is( $q->(
			"SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K128'), (SELECT count(*) FROM aaa_pd.calls)"
		),
		"$C128|0",
		'... the portable edition still uses pgcrypto\'s own, and the member is never called');
	must(
		$q_ok->(
			'ALTER EXTENSION pgcrypto DROP FUNCTION aaa_pd.encrypt(bytea, bytea, text); DROP SCHEMA aaa_pd CASCADE'
		),
		'take it out again');
	must(
		$q_ok->(
			'DROP FUNCTION public.encrypt(bytea, bytea, text), public.decrypt(bytea, bytea, text)'),
		'drop the look-alikes');
	if ($tle && $version_num->() >= 160000)
	{
		# From 16 on, moving an extension reads the control file of each extension that requires
		# it (its no_relocate list), and a pg_tle extension has none on disk (docs/portable.md says
		# so).
		my ($rc, $out, $err) = $psql_in->(
			$su, $DB, "CREATE SCHEMA crypto2_pd; ALTER EXTENSION pgcrypto SET SCHEMA crypto2_pd");
		like(
			"$out\n$err",
			qr/ERROR:  extension "ulid_portable" is not available/,
			'16 and later: pgcrypto cannot move while the pg_tle form requires it (pg_tle has no control file)'
		);
		is( $q->(
				"SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = 'pgcrypto';
                 SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K256')"),
			"$CRYPTO\n$C256",
			'... it stays where it was, and is used');
	}
	else
	{
		must(
			$q_ok->(
				'CREATE SCHEMA crypto2_pd; ALTER EXTENSION pgcrypto SET SCHEMA crypto2_pd'),
			'pgcrypto moved to another schema (ALTER EXTENSION SET SCHEMA)');
		is($q->("SELECT ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K256')"),
			$C256, '... is found there');
	}

	note 'a hostile search_path: look-alikes of every pg_catalog function and operator the file names';
	{
		my $text = slurp_file($PORTABLE);
		my %f    = map { $_ => 1 } $text =~ /pg_catalog\.([a-z_0-9]*)\(/g;
		my %o    = map { $_ => 1 } $text =~ /OPERATOR\(pg_catalog\.([^)]*)\)/g;
		my @fnames  = sort keys %f;
		my @opnames = sort keys %o;
		my $fnlist  = join ',', map { "'$_'" } @fnames;
		my $oplist  = join ',', map { "'$_'" } @opnames;
		must(
			$q_ok->(
				"CREATE SCHEMA evil;
                 CREATE TABLE evil.calls (what text);
                 CREATE FUNCTION evil.trap() RETURNS void LANGUAGE sql AS \$\$ INSERT INTO evil.calls VALUES ('called') \$\$;
                 DO \$\$
                 DECLARE p record; made int := 0;
                 BEGIN
                     FOR p IN SELECT proname, pg_get_function_arguments(oid) AS args, pg_get_function_result(oid) AS res
                              FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace AND proname IN ($fnlist)
                              AND prokind = 'f' AND NOT proretset LOOP
                         BEGIN
                             EXECUTE format('CREATE FUNCTION evil.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
                                            p.proname, p.args, p.res,
                                            'BEGIN INSERT INTO evil.calls VALUES (' || quote_literal(p.proname) || '); RETURN NULL; END');
                             made := made + 1;
                         EXCEPTION WHEN others THEN NULL; -- pseudo-type arguments (\"any\", internal): not plantable
                         END;
                     END LOOP;
                     FOR p IN SELECT oprname, oprleft::regtype AS l, oprright::regtype AS r, oprresult::regtype AS res
                              FROM pg_operator WHERE oprnamespace = 'pg_catalog'::regnamespace AND oprname IN ($oplist)
                              AND oprleft <> 0 AND 'anyelement'::regtype NOT IN (oprleft, oprright) LOOP
                         BEGIN
                             EXECUTE format('CREATE FUNCTION evil.op_%s(%s, %s) RETURNS %s LANGUAGE plpgsql AS %L',
                                            made, p.l, p.r, p.res,
                                            'BEGIN INSERT INTO evil.calls VALUES (' || quote_literal(p.oprname) || '); RETURN NULL; END');
                             EXECUTE format('CREATE OPERATOR evil.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = evil.op_%s)',
                                            p.oprname, p.l, p.r, made);
                             made := made + 1;
                         EXCEPTION WHEN others THEN NULL;
                         END;
                     END LOOP;
                     RAISE NOTICE 'planted %', made;
                 END \$\$"),
			'plant look-alikes in schema evil');
		note 'planted '
		  . $q->("SELECT count(*) FROM pg_proc WHERE pronamespace = 'evil'::regnamespace")
		  . ' functions for '
		  . scalar(@fnames)
		  . ' names and '
		  . scalar(@opnames)
		  . ' operators';
	}
	is( $q->(
			"SET search_path = evil, pg_catalog; SELECT encode('\\x00'::bytea, 'hex') IS NULL, 1::bigint + 1::bigint IS NULL"
		),
		't|t',
		'the trap works for unqualified calls');
	cmp_num($q->('SELECT count(*) FROM evil.calls'),
		'==', 2, 'look-alikes called by the trap check');
	$q->('TRUNCATE evil.calls');
	# Under the hostile path only the portable functions are called (on literals); the results
	# are compared with the native ones in an ordinary session.
	my $U = $q->('SELECT gen_random_uuid()');
	my $T = '2024-02-29 12:34:56.789876+00';
	my ($hout, $herr) = $session->(
		"SELECT ulid_portable.ulid_encode('$U'), ulid_portable.ulid_decode(ulid_portable.ulid_encode('$U')),
                ulid_portable.ulid_to_timestamp('$U'), ulid_portable.ulid_min('$T'), ulid_portable.ulid_max('$T'),
                ulid_portable.ulid_to_timestamp(ulid_portable.gen_ulid('$T'));
         SELECT ulid_portable.gen_ulid() FROM generate_series(1, 3);
         SELECT ulid_portable.gen_random_ulid();
         SELECT ulid_portable.ulid_decode('8ZZZZZZZZZZZZZZZZZZZZZZZZZ');
         SELECT ulid_portable.ulid_decode('000000000000000000000000é');
         SELECT ulid_portable.ulid_decode('');
         SELECT ulid_portable.ulid_min('infinity');
         SELECT ulid_portable.ulid_max('20000-01-01');
         SELECT ulid_portable.ulid_decrypt(ulid_portable.ulid_encrypt('$FIPS_PLAIN', '$K256'), '$K256');",
		{ PGOPTIONS => '-c search_path=evil,pg_catalog,public -c TimeZone=UTC' });
	my @hl = split /\n/, $hout;
	is( $hl[0] // '',
		$q->(
			"SELECT '$U'::uuid::ulid::text, '$U'::uuid, ulid_to_timestamp('$U'::uuid::ulid), ulid_min('$T')::uuid, ulid_max('$T')::uuid,
                    ulid_to_timestamp(ulid_min('$T'))",
			{ PGOPTIONS => '-c TimeZone=UTC' }),
		'every function works under it: encode, decode, timestamps, bounds, gen_ulid(ts)');
	{
		my @gen = map { $_ // '' } @hl[ 1 .. 3 ];
		my %seen;
		my $distinct = grep { !$seen{$_}++ } @gen;
		my $sorted = join("\n", @gen) eq join("\n", sort @gen) ? 'sorted' : 'unsorted';
		is( "$distinct $sorted " . length($hl[4] // ''),
			'3 sorted 36',
			'gen_ulid() increasing and gen_random_ulid() under it (first calls of the session)');
	}
	{
		my $n = grep { /ERROR:  (?:invalid input syntax for type ulid|timestamp out of range for ulid)/ }
		  split /\n/, $herr;
		is($n, 5, 'errors under it are the native ones (messages)');
	}
	like(
		$herr,
		qr/Byte 0xC3 at position 25 is not in the Crockford Base32 alphabet\./,
		'error details under it');
	is($hl[-1] // '', $FIPS_PLAIN, 'ulid_encrypt and ulid_decrypt under it (through pgcrypto)');
	is( $q->(
			"SELECT count(*) || ' ' || coalesce(string_agg(DISTINCT what, ','), '') FROM evil.calls"),
		'0 ',
		'look-alikes called');
	return;
}

1;
