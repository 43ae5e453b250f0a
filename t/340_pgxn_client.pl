# PGXN's client (Debian's pgxnclient) with the PGXN archive (docs/install.md "From PGXN"):
#   - `scripts/package pgxn` writes ulid-<version>.zip (make dist of the working tree);
#   - into a server that has no file of the extension -- a copy of the install of the server under
#     test (source-built or Debian's 15) without them, in the test's temporary directory, and a
#     node of its own running from it --, `pgxn install ./ulid-<version>.zip` builds and installs
#     it where pg_config says, `pgxn load` creates the extension at default_version (the backend
#     maps the ulid.so pgxn installed), `pgxn check` runs the whole regression suite against it and
#     passes, `pgxn unload` drops the extension and `pgxn uninstall` removes every file it installed.
# Runs as the user postgres, nothing as root: the server under test keeps its own install of the
# extension untouched (checked); `pgxn check` runs the regression suite alone (TAP_TESTS empty, as a
# user's as root). The node runs from the copy (install_path on 14+, its bin/ first
# in PATH on 13). About 30 s (a build of the extension).
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))

use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;
use PkgInstall;

my $started   = time;
my ($pg_config, $major, $version, $work) = pkg_begin;
my $zipname = "ulid-$version.zip";

my ($pgxn) = grep { -x "$_/pgxn" } split /:/, $ENV{PATH};
if (!defined $pgxn)
{
	fail('pgxn is not installed (apt-get install pgxnclient)');
	done_testing();
	exit;
}
my @before = installed_files($pg_config);

my ($rc, $out) = run_cmd('scripts/package', 'pgxn', '--out', "$work/dist");
diag($out) if $rc != 0;
must($rc == 0, 'scripts/package pgxn');
ok(-f "$work/dist/$zipname", $zipname);

# ---- into a copy of the server install without the extension's files
my $install;
must_run("a copy of the PostgreSQL $major install without the extension's files",
	sub { $install = server_copy($pg_config, "$work/server") });
my $tpgc = "$install/bin/pg_config";
my $node;
must_run(
	'a cluster of the copy, with a database mydb',
	sub {
		$node = copy_node('pgxn', $install, $major);
		$node->safe_psql('postgres', 'CREATE DATABASE mydb');
	});
is(join("\n", installed_files($tpgc)),
	'',
	'no file of the extension in '
	  . pg_config_value('--pkglibdir', $tpgc) . ' and '
	  . pg_config_value('--sharedir',  $tpgc)
	  . '/extension');

# ---- a user's steps (docs/install.md), in the directory of the archive; docs/install.md quotes
# these three lines
my $steps = <<'SH';
pgxn install --pg_config "$PG_CONFIG" ./ulid-*.zip
pgxn load --pg_config "$PG_CONFIG" -d mydb ./ulid-*.zip
pgxn check --pg_config "$PG_CONFIG" ./ulid-*.zip
SH
local $ENV{PGHOST} = $node->host;
local $ENV{PGPORT} = $node->port;
my $t0    = time;
my $steps_out = '';
{
	local $ENV{PG_CONFIG} = $tpgc;
	IPC::Run::run([ 'bash', '-e', '-c', "cd \"\$1\"\n$steps", 'steps', "$work/dist" ],
		'<', \undef, '>&', \$steps_out);
	$rc = $? >> 8;
}
ok($rc == 0, 'pgxn install, pgxn load -d mydb, pgxn check (' . (time - $t0) . ' s)')
  or diag("the steps (exit $rc):\n"
	  . join("\n", grep { defined } (split /\n/, $steps_out)[-60 .. -1]));
my @installed = installed_files($tpgc);
ok((grep { $_ eq pg_config_value('--pkglibdir', $tpgc) . '/ulid.so' } @installed),
	'pgxn install installed ulid.so');
ok((grep { $_ eq pg_config_value('--sharedir', $tpgc) . "/extension/ulid--$version.sql" } @installed),
	"pgxn install installed ulid--$version.sql");
like($steps_out, qr/CREATE EXTENSION/, 'pgxn load ran CREATE EXTENSION');
is($node->safe_psql('mydb', "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"),
	$version, 'the extension is at default_version');
is(loaded_libs($node, 'mydb'),
	pg_config_value('--pkglibdir', $tpgc) . '/ulid.so',
	'the backend maps the ulid.so pgxn installed');
like(join("\n", grep { /tests passed/ } split /\n/, $steps_out),
	qr/All [0-9]+ tests passed/, 'pgxn check ran the regression suite: it passed');

# ---- pgxn unload and uninstall
{
	local $ENV{PG_CONFIG} = $tpgc;
	IPC::Run::run([ 'pgxn', 'unload', '--pg_config', $tpgc, '-d', 'mydb', "./$zipname" ],
		'<', \undef, '>&', \$out, init => sub { chdir "$work/dist" or die $! });
	$rc = $? >> 8;
	chomp $out;
	ok($rc == 0, "pgxn unload -d mydb: $out");
	is($node->safe_psql('mydb', "SELECT count(*) FROM pg_extension WHERE extname = 'ulid'"),
		0, 'no extension left in the database');
	IPC::Run::run([ 'pgxn', 'uninstall', '--pg_config', $tpgc, "./$zipname" ],
		'<', \undef, '>&', \$out, init => sub { chdir "$work/dist" or die $! });
	$rc = $? >> 8;
	ok($rc == 0, "pgxn uninstall ./$zipname") or diag($out);
}
is(join("\n", installed_files($tpgc)), '', 'no file of the extension left');
$node->stop;
is_deeply([ installed_files($pg_config) ],
	\@before,
	'the server under test keeps its own install of the extension (' . scalar(@before) . ' files)');

note 'pgxn_client took ' . (time - $started) . ' s';
done_testing();
