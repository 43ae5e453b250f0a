# The helpers of the TAP suites that install the extension the way users do (t/330_release_binaries.pl,
# t/340_pgxn_client.pl, test/suites/package_deb.pl), on top of UlidTest.pm. t/330 and t/340 run as
# the user postgres and install nothing into the servers: what they install goes into a copy of the
# server install that the test owns. package_deb.pl, as root, installs the Debian package into
# Debian's server itself; it uses the helpers that only read (pkg_begin, text, installed_files,
# make_vars, expected_files).
# A suite loads it with: use FindBin; use lib "$FindBin::RealBin/lib"; use PkgInstall;
package PkgInstall;

use strict;
use warnings;

use Cwd qw(abs_path);
use Exporter 'import';
use File::Basename qw(basename dirname);
use File::Find;
use File::Path qw(make_path);
use File::Spec;
use File::Temp;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTest;

our @EXPORT = qw(pkg_begin text installed_files make_vars expected_files server_copy copy_node loaded_libs);

# pkg_begin: (PG_CONFIG, MAJOR, VERSION, WORK): the server under test's pg_config ($ENV{PG_CONFIG}),
# its major, the extension's default_version and the test's temporary directory (readable by the
# servers and the user postgres, who runs the package's build-time tests: the framework's own under
# tmp_check when every directory above it is searchable by others, else one in the system's
# temporary directory, as when the tree lies in a private directory such as a mktemp -d;
# scripts/package's own temporary directories go there too, through TMPDIR). The make
# commands the suite runs (scripts/package, pgxn) are not sub-makes of make installcheck, whose
# command line (REGRESS= PROVE_TESTS=...) make exports: that environment is cleared, and TAP_TESTS
# is empty (the Makefile's TAP suites, this very run, are left out of any make installcheck).
sub pkg_begin
{
	my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
	my ($major) = pg_config_value('--version', $pg_config) =~ /^PostgreSQL (\d+)/;
	BAIL_OUT("cannot tell the major of $pg_config") unless defined $major;
	my ($version) = slurp_file('ulid.control') =~ /^default_version = '(.*)'$/m;
	my $work = PostgreSQL::Test::Utils::tempdir;
	$work = File::Temp::tempdir('ulid-pkg.XXXXXX', DIR => File::Spec->tmpdir, CLEANUP => 1)
	  unless searchable_above($work);
	chmod 0755, $work;
	$ENV{TMPDIR} = $work;
	delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES REGRESS PROVE_TESTS PROVE_FLAGS)};
	$ENV{TAP_TESTS} = '';
	return ($pg_config, $major, $version, $work);
}

# searchable_above DIR: true when every directory above DIR can be searched by any user
sub searchable_above
{
	my $d = dirname(abs_path($_[0]));
	while (1)
	{
		my @st = stat($d) or return 0;
		return 0 unless $st[2] & 01;
		last if $d eq '/';
		$d = dirname($d);
	}
	return 1;
}

# text FILE: FILE's text ('' when there is no such file)
sub text { return -f $_[0] ? slurp_file($_[0]) : ''; }

# installed_files PG_CONFIG: the extension's files installed in that server (ulid.so, its JIT
# bitcode, ulid.control, ulid--*.sql), sorted absolute paths
sub installed_files
{
	my ($pgc) = @_;
	my $pkglib = pg_config_value('--pkglibdir', $pgc);
	my $ext    = pg_config_value('--sharedir',  $pgc) . '/extension';
	my @f;
	push @f, "$pkglib/ulid.so"                if -e "$pkglib/ulid.so";
	push @f, "$pkglib/bitcode/ulid.index.bc" if -e "$pkglib/bitcode/ulid.index.bc";
	find(sub { push @f, $File::Find::name if -f }, "$pkglib/bitcode/ulid")
	  if -d "$pkglib/bitcode/ulid";
	push @f, grep { -f } "$ext/ulid.control", glob("$ext/ulid--*.sql");
	return sort @f;
}

# make_vars PG_CONFIG, RULE: the lines the rule RULE (a makefile read after the tree's, in the
# current directory) prints; never a sub-make of make installcheck (whose REGRESS= it would inherit)
sub make_vars
{
	my ($pgc, $rule) = @_;
	my ($out, $err) = ('', '');
	my ($target) = $rule =~ /^([\w-]+):/;
	local @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES)};
	delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES)};
	IPC::Run::run([ 'make', '-s', '-f', 'Makefile', '-f', '-', "PG_CONFIG=$pgc", $target ],
		'<', \$rule, '>', \$out, '2>', \$err)
	  or diag("make: $err");
	return split /\n/, $out;
}

# expected_files PG_CONFIG: the files `make install` of this tree installs there, but the JIT
# bitcode (from the Makefile's own variables: stale files of older installs do not count)
sub expected_files
{
	my ($pgc) = @_;
	my $pkglib = pg_config_value('--pkglibdir', $pgc);
	my $share  = pg_config_value('--sharedir',  $pgc);
	my ($mod_ext, $data) = make_vars($pgc,
		"print-install-files:\n\t\@echo \"\$(MODULE_big) \$(EXTENSION)\"\n\t\@echo \"\$(DATA) \$(DATA_built)\"\n"
	);
	my ($module, $ext) = split ' ', $mod_ext // '';
	return () unless defined $ext;
	return sort("$pkglib/$module.so", "$share/extension/$ext.control",
		map { "$share/extension/" . basename($_) } split ' ', $data // '');
}

# server_copy PG_CONFIG, DEST: a copy, in DEST, of the server install of PG_CONFIG without any file
# of the extension (a server that never saw the build): the directories of its programs, SQL files,
# libraries and headers, each at its absolute path under DEST (a source-built server is one prefix;
# Debian's spans /usr/lib/postgresql/<major>, /usr/share/postgresql/<major> and
# /usr/include/postgresql; its libdir, /usr/lib/<triplet>, is an empty directory in the copy). Both
# are relocatable: the copy's pg_config reports the copy's
# directories. Returns the copy's install directory (for install_path; its bin/ holds pg_config);
# dies when the copy fails or keeps a file of the extension.
sub server_copy
{
	my ($pgc, $dest) = @_;
	my @dirs = map { abs_path($_) // $_ } dirname(pg_config_value('--bindir', $pgc)),
	  map { pg_config_value($_, $pgc) } '--sharedir', '--pkglibdir', '--includedir',
	  '--includedir-server';
	my @top;
	for my $d (sort @dirs)
	{
		push @top, $d unless grep { $d eq $_ || index($d, "$_/") == 0 } @top;
	}
	for my $d (@top)
	{
		make_path(dirname("$dest$d"));
		system('cp', '-a', $d, "$dest$d") == 0 or die "cannot copy $d to $dest$d";
	}
	# pgxn tests whether pg_config --libdir is writable (to tell whether it needs sudo): Debian's,
	# /usr/lib/<triplet>, is not copied, and an empty directory stands in for it
	my $libdir = pg_config_value('--libdir', $pgc);
	make_path("$dest$libdir") unless grep { $libdir eq $_ || index($libdir, "$_/") == 0 } @top;
	my @gone;
	find(
		{
			no_chdir => 1,
			wanted   => sub {
				push @gone, $_
				  if (-f && basename($_) =~
					/^(ulid\.so|ulid_test_throw\.so|ulid\.index\.bc|ulid\.control|ulid--.*\.sql)$/)
				  || (-d && m{/bitcode/ulid[^/]*$});
			}
		},
		$dest);
	system('rm', '-rf', @gone) if @gone;
	my @left;
	find(sub { push @left, $File::Find::name if /^ulid(\.|--|_test)/ }, $dest); # (not the ulid-pg cache of the servers)
	die "left over in $dest: @left" if @left;
	return $dest . (abs_path(dirname(pg_config_value('--bindir', $pgc))) // '');
}

# copy_node NAME, INSTALL, MAJOR: a node of the copy INSTALL (server_copy's), started; its programs
# through install_path on 14+, and INSTALL/bin first in PATH from now on (13's PostgresNode takes
# them from PATH; pgxn, pg_regress and psql of the copy too). Where the framework is the older
# PostgresNode (13, 14) the node comes from its get_new_node: 14's PostgreSQL::Test::Cluster->new
# takes (NAME, install_path => DIR) for its own (NAME, HOST, PORT) and makes a node whose host is
# "install_path"
sub copy_node
{
	my ($name, $install, $major) = @_;
	$ENV{PATH} = "$install/bin:$ENV{PATH}";
	my @params = $major >= 14 ? (install_path => $install) : ();
	my $node =
	  PostgreSQL::Test::Cluster->can('get_new_node')
	  ? PostgreSQL::Test::Cluster->get_new_node($name, @params)
	  : PostgreSQL::Test::Cluster->new($name, @params);
	$node->init;
	$node->start;
	return $node;
}

# loaded_libs NODE, DB: the ulid libraries a backend of NODE maps after a call of gen_ulid() in DB
# (sorted, space-separated)
sub loaded_libs
{
	my ($node, $db) = @_;
	my ($rc, $maps, $err) = $node->psql($db,
		"SELECT gen_ulid() IS NOT NULL; SELECT pg_read_file('/proc/self/maps')");
	diag("$db: $err") if $rc != 0;
	my %libs = map { $_ => 1 } $maps =~ m{(/[^ \n]*ulid[^ \n]*\.so)}g;
	return join(' ', sort keys %libs);
}

1;
