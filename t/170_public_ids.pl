# Public ids with the key held by the server (ulid_encrypt(ulid), ulid_decrypt(ulid) and the setting
# ulid.public_id_key), on a server of its own that preloads ulid and reads the key from a file that
# postgresql.conf includes (mode 0600, as docs/public-ids.md says), and a test-only build without
# OpenSSL.
#
#   - the server-key forms agree with the key-argument forms and round-trip;
#   - a role granted EXECUTE uses the key and cannot read it (SHOW, current_setting, pg_settings:
#     42501 or no row); a role without the grant gets 42501 from the functions; a member of
#     pg_read_all_settings reads it; SET, ALTER ROLE/DATABASE SET and ALTER SYSTEM are refused;
#   - with log_statement = all, a view over ulid_encrypt(id) and pg_stat_statements (where its
#     library is installed), the key's digits appear in no log line, view definition or statement;
#   - the key changes at a restart only (a reload would log a changed value): a reload keeps the
#     key in force; a bad value at a restart is logged without the value, and leaves no key (55000);
#     a new key changes every public id (a rotation); an empty key: 55000;
#   - a test-only build as on a server built without OpenSSL (make ULID_TEST_NO_OPENSSL=1, in a
#     scratch copy, loaded from there and never installed): the library loads and both functions
#     raise 0A000; the installed ulid.so needs no libcrypto (objdump and nm of binutils).

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

# random_hex(BYTES): a key of BYTES random bytes, in hex
sub random_hex
{
	my ($bytes) = @_;
	open(my $fh, '<:raw', '/dev/urandom') or die "/dev/urandom: $!";
	read($fh, my $buf, $bytes) == $bytes or die "/dev/urandom: short read";
	close $fh;
	return unpack('H*', $buf);
}
my $key1  = random_hex(32);
my $key2  = random_hex(16);
my $other = random_hex(16);    # for the statements that must be refused

my $pkglibdir = pg_config_value('--pkglibdir', $pg_config);
my $pss = -f "$pkglibdir/pg_stat_statements.so" ? ',pg_stat_statements' : '';

my $node = PostgreSQL::Test::Cluster->new('keys');
$node->init;
$node->append_conf(
	'postgresql.conf', qq(
shared_preload_libraries = 'ulid$pss'
log_statement = 'all'
log_min_error_statement = 'debug5'
include_if_exists = 'ulid_key.conf'
));

# the key file of the docs: one line, readable by the server's OS user only
sub write_key
{
	my ($key) = @_;
	my $conf = $node->data_dir . '/ulid_key.conf';
	open(my $fh, '>', $conf) or die "$conf: $!";
	print $fh "ulid.public_id_key = '$key'\n";
	close $fh;
	chmod 0600, $conf;
	return;
}

# without_prefix(TEXT): psql's messages without the "psql:<stdin>:N: " that a script read from
# stdin puts before them
sub without_prefix
{
	my ($text) = @_;
	$text =~ s/^psql:<stdin>:\d+: //mg;
	return $text;
}

sub query
{
	return node_query($node, $_[0]);
}

# qk(SQL): query, for the suite's own statements that name a key (to compare with the server's):
# not logged, so that the log holds only what the documented usage sends
sub qk
{
	return query("SET log_statement = 'none'; SET log_min_error_statement = 'panic'; $_[0]");
}

# q_err(SQL): SQL as the superuser, its output and its error text
sub q_err
{
	my ($rc, $out, $err) = $node->psql('postgres', $_[0]);
	return join("\n", grep { $_ ne '' } $out, without_prefix($err));
}

# as(ROLE, SQL): SQL as ROLE with VERBOSITY verbose, its output and its error text
sub as
{
	my ($role, $sql) = @_;
	my ($rc, $out, $err) = $node->psql(
		'postgres', $sql,
		extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ]);
	return join("\n", grep { $_ ne '' } $out, without_prefix($err));
}

sub log_text
{
	return slurp_file($node->logfile);
}

note 'a server that preloads ulid and includes the key file';
write_key($key1);
must($node->start(fail_ok => 1), 'server starts');
note query('SELECT version()');
must(
	node_sql_ok(
		$node, "
    CREATE EXTENSION ulid;
    CREATE ROLE app LOGIN; CREATE ROLE nobody LOGIN; CREATE ROLE reader LOGIN;
    GRANT pg_read_all_settings TO reader;
    GRANT EXECUTE ON FUNCTION ulid_encrypt(ulid), ulid_decrypt(ulid) TO app;
    CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int);
    INSERT INTO orders (n) SELECT i FROM generate_series(1, 1000) i;
    GRANT SELECT ON orders TO app, nobody, reader"),
	'extension, roles app (EXECUTE granted), nobody, reader (pg_read_all_settings), a table');
must(node_sql_ok($node, 'CREATE EXTENSION pg_stat_statements'), 'pg_stat_statements')
  if $pss;

note 'the server-held key';
is( qk(
		"SELECT count(*) FILTER (WHERE ulid_encrypt(id) = ulid_encrypt(id, decode('$key1', 'hex')))
                 || ' ' || count(*) FILTER (WHERE ulid_decrypt(ulid_encrypt(id)) = id) FROM orders"),
	'1000 1000',
	'ulid_encrypt(id) = ulid_encrypt(id, key of the file); round trips (1,000 ids)');
is( as(
		'app',
		'SELECT count(*) FROM orders o
         WHERE o.id = ulid_decrypt((SELECT ulid_encrypt(id) FROM orders WHERE n = 7))'),
	'1',
	'app: encrypts, decrypts, and finds a row by its public id');
for my $r ('app', 'nobody')
{
	like(
		as($r, 'SHOW ulid.public_id_key'),
		qr/^ERROR:  42501: .* to examine "ulid\.public_id_key"/,
		"$r: SHOW ulid.public_id_key is refused (42501)");
	like(
		as($r, "SELECT current_setting('ulid.public_id_key')"),
		qr/^ERROR:  42501: .* to examine "ulid\.public_id_key"/,
		"$r: current_setting() is refused (42501)");
	is(as($r, "SELECT count(*) FROM pg_settings WHERE name = 'ulid.public_id_key'"),
		'0', "$r: pg_settings has no row of it");
}
like(
	as('nobody', 'SELECT ulid_encrypt(id) FROM orders LIMIT 1'),
	qr/permission denied for function ulid_encrypt/,
	'nobody: ulid_encrypt(id) is refused (no EXECUTE)');
like(
	as('nobody', 'SELECT ulid_decrypt(id) FROM orders LIMIT 1'),
	qr/permission denied for function ulid_decrypt/,
	'nobody: ulid_decrypt(id) is refused');
is(as('reader', 'SHOW ulid.public_id_key'), $key1,
	'reader (pg_read_all_settings): reads the key');
like(
	as('reader', 'SELECT ulid_encrypt(id) FROM orders LIMIT 1'),
	qr/permission denied for function ulid_encrypt/,
	'reader: but cannot use it without EXECUTE');
like(
	as('app', "SET ulid.public_id_key = '$other'"),
	qr/cannot be changed/,
	"SET is refused (55P02: set in the server's files only)");
like(
	q_err("ALTER ROLE app SET ulid.public_id_key = '$other'"),
	qr/cannot be changed/,
	'ALTER ROLE ... SET is refused (the value would be in pg_db_role_setting, which every role reads)'
);
like(
	q_err("ALTER DATABASE postgres SET ulid.public_id_key = '$other'"),
	qr/cannot be changed/,
	'ALTER DATABASE ... SET is refused');
like(
	q_err("ALTER SYSTEM SET ulid.public_id_key = '$other'"),
	qr/cannot be changed/,
	'ALTER SYSTEM is refused (the statement would carry the key)');
is( query(
		"SELECT count(*) FROM pg_db_role_setting
         WHERE array_to_string(setconfig, ' ') ~ 'public_id_key'"),
	'0',
	'pg_db_role_setting holds no key');

note 'where the key does not appear';
must(
	node_sql_ok(
		$node, '
    CREATE VIEW public_orders AS SELECT ulid_encrypt(id) AS public_id, n FROM orders;
    GRANT SELECT ON public_orders TO app'),
	'a view of public ids, used');
is(as('app', 'SELECT count(DISTINCT public_id) FROM public_orders'),
	'1000', 'app reads the view');
is(qk("SELECT pg_get_viewdef('public_orders') ~* '$key1'"),
	'f', "the view's definition has no key");
if ($pss)
{
	is( qk(
			"SELECT count(*) FILTER (WHERE query ~ 'ulid_encrypt') > 0, count(*) FILTER (WHERE query ~* '$key1')
             FROM pg_stat_statements"),
		't|0',
		'pg_stat_statements: statements with ulid_encrypt, none with the key');
}
else
{
	note 'pg_stat_statements is not installed for this server: that check is left out';
}

note 'the key changes at a restart only: a reload, a bad value, a new key, no key';
my $before = query('SELECT ulid_encrypt(id) FROM orders WHERE n = 1');
write_key($key2);
must(node_sql_ok($node, 'SELECT pg_reload_conf()'), 'a new key in the file, then a reload');
my $needs_restart =
  'parameter "ulid.public_id_key" cannot be changed without restarting the server';
# the postmaster logs it once it has read the files again (the bash suite waited a second)
for (1 .. 100)
{
	last if index(log_text(), $needs_restart) >= 0;
	select(undef, undef, undef, 0.1);
}
like(log_text(), qr/\Q$needs_restart\E/, 'the reload logs that the setting needs a restart');
is(query('SELECT ulid_encrypt(id) FROM orders WHERE n = 1'),
	$before, '... and the key in force stays (same public id)');
my $bad = "${key2}zz";
write_key($bad);
must_run('a bad value in the file, then a restart', sub { $node->restart });
like(
	log_text(),
	qr/\Qinvalid value for parameter "ulid.public_id_key" (the value is not shown)\E/,
	'the server starts and logs a message that names the setting');
is(index(log_text(), $bad), -1, '... without the bad value');
like(
	as('app', 'SELECT ulid_encrypt(id) FROM orders LIMIT 1'),
	qr/55000: ulid\.public_id_key is not set/,
	'... and no key is in force: 55000');
write_key($key2);
must_run('a new key (AES-128), then a restart', sub { $node->restart });
is( qk(
		"SELECT count(*) FILTER (WHERE ulid_encrypt(id) = ulid_encrypt(id, decode('$key1', 'hex')))
                 || ' ' || count(*) FILTER (WHERE ulid_encrypt(id) = ulid_encrypt(id, decode('$key2', 'hex'))) FROM orders"
	),
	'0 1000',
	'a rotation: every public id changes, and the new key is the one used');
is( qk(
		"SELECT count(*) FROM orders o
         WHERE o.id IN (ulid_decrypt('$before'), ulid_decrypt('$before'::ulid, decode('$key1', 'hex')))"
	),
	'1',
	'an old public id still found during a rotation: decrypt with each key, one probe each');
write_key('');
must_run('no key, then a restart', sub { $node->restart });
like(
	as('app', 'SELECT ulid_encrypt(id) FROM orders LIMIT 1'),
	qr/55000: ulid\.public_id_key is not set/,
	'no key: 55000');
for my $k ($key1, $key2)
{
	unlike(log_text(), qr/\Q$k\E/i, "the key's digits in the server log (" . length($k) / 2 . ' bytes)');
}

note 'a server without OpenSSL (the test-only build of make ULID_TEST_NO_OPENSSL=1)';
my $tree = "$work/tree";
my @make;
must_run('make ULID_TEST_NO_OPENSSL=1 in a scratch copy',
	sub { @make = test_build($tree, 'ULID_TEST_NO_OPENSSL', $pg_config) });
my $lib = "$tree/ulid_test_no_openssl.so";
isnt((run_cmd(@make, 'install', "DESTDIR=$work/dest"))[0],
	0, 'make install of the test-only build is refused');
must(
	node_sql_ok(
		$node, "
    CREATE SCHEMA no_ssl;
    CREATE FUNCTION no_ssl.encrypt(ulid, bytea) RETURNS ulid AS '$lib', 'ulid_encrypt' LANGUAGE C STRICT;
    CREATE FUNCTION no_ssl.decrypt(ulid, bytea) RETURNS ulid AS '$lib', 'ulid_decrypt' LANGUAGE C STRICT"
	),
	'its ulid_encrypt and ulid_decrypt as test functions');
my ($rc, $stdout, $stderr) = $node->psql(
	'postgres', q{\set VERBOSITY verbose
SELECT no_ssl.encrypt(gen_ulid(), '\x000102030405060708090a0b0c0d0e0f');
SELECT no_ssl.decrypt(gen_ulid(), '\x000102030405060708090a0b0c0d0e0f');
SELECT no_ssl.encrypt(gen_ulid(), '\x00');
SELECT 'loaded, and the backend carries on';
}, on_error_stop => 0);
my $out = without_prefix("$stdout\n$stderr");
is( scalar(() = $out =~ /^ERROR:  0A000: ulid_encrypt\(\) and ulid_decrypt\(\) need OpenSSL/mg),
	2, 'encrypt and decrypt: 0A000 (the build says it has no OpenSSL)');
like($out, qr/DETAIL:  This server was built without OpenSSL\./, '... with the DETAIL');
like($out, qr/ERROR:  22023: ulid key must be 16 or 32 bytes/,
	'a bad key length is still 22023 there');
like($out, qr/loaded, and the backend carries on/, 'the session goes on');
my $normal_so = "$pkglibdir/ulid.so";
my $needed = (run_cmd('objdump', '-p', $normal_so))[1];
is(scalar(grep { /^\s*NEEDED\s+.*(libcrypto|libssl)/ } split /\n/, $needed),
	0, 'the installed ulid.so needs no libcrypto or libssl (objdump -p NEEDED)');
my $dynsyms = (run_cmd('nm', '-D', $normal_so))[1];
is(scalar(grep { /^\s*w\s+EVP_/ } split /\n/, $dynsyms),
	9, "... its OpenSSL functions are weak references (bound to the server's, if any)");

note 'public_ids took ' . (time - $started) . ' s';
$node->stop;

done_testing();
