# Release binaries (scripts/package binaries; docs/install.md "From a release binary").
#
# On a source-built major (scripts/pins/pg-versions), into a server that never saw the build tree (a
# copy of the server install without any file of the extension, in the test's temporary directory):
#   - `scripts/package binaries <major>` writes ulid-<version>-pg<major>-linux-<arch>.tar.gz and
#     SHA256SUMS; a user's three steps (docs/install.md, run verbatim below) check the sum, unpack
#     and run install.sh with the copy's pg_config; install.sh refuses a pg_config of another major
#     and then copies nothing;
#   - the archive holds install.sh, README, LICENSE and, under pkglibdir/ and sharedir/, the same
#     files `make install` installs;
#   - what pkglibdir/ulid.so needs at run time: nothing but libstdc++.so.6, libm, libgcc_s and libc
#     (objdump -p; OpenSSL's EVP functions are weak, unversioned references), all found (ldd), no RPATH/RUNPATH, and no symbol version newer than GLIBC_2.17,
#     GLIBCXX_3.4 and CXXABI_1.3 (objdump -T): the floors docs/install.md states (checked too);
#   - the library is compiled at -O2: the last -O of the server's PGXS CXXFLAGS (on every major,
#     the sid chroot's 19 too; the source-built servers' own C is compiled at -O1);
#   - a cluster of the copy creates the extension at default_version, its backend maps ulid.so from
#     the copy's directory and from nowhere else, and the whole regression suite passes (the copy's
#     pg_regress, sql/ and expected/ copied out of the tree).
# On Debian's packaged 15, whose users take the .deb (release binaries are made for the source-built
# majors): the same steps with DESTDIR stage exactly the files and contents of the source install,
# and the archive built against that server has the same layout and run-time needs.
# In the pass of 19 in the sid chroot (a library built against a newer glibc): scripts/package
# refuses to make the archive, naming the floor.
# Runs as the user postgres and installs nothing into the servers: the copy belongs to the test, a
# node of its own runs from it (install_path on 14+, its bin/ first in PATH on 13). About 15 s per
# major.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))

use strict;
use warnings;

use File::Basename qw(dirname);
use File::Find;
use Cwd qw(abs_path);
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
my $arch = `uname -m`;
chomp $arch;
my $name = "ulid-$version-pg$major-linux-$arch";
my $source_built = 0;
for (split /\n/, slurp_file('scripts/pins/pg-versions'))
{
	my @f = split;
	$source_built = 1 if @f && $f[0] eq $major;
}
# the run-time floors docs/install.md states (checked below against the library and the page)
my %floor = (GLIBC => '2.17', GLIBCXX => '3.4', CXXABI => '1.3');

# tail N, TEXT: TEXT's last N lines
sub tail
{
	my ($n, $text) = @_;
	my @l = split /\n/, $text // '';
	return join("\n", @l > $n ? @l[ -$n .. -1 ] : @l);
}

# relative PG_CONFIG, PATHS: PATHS with pg_config's pkglibdir and sharedir as pkglibdir/ and
# sharedir/, but the JIT bitcode, sorted
sub relative
{
	my ($pgc, @paths) = @_;
	my $pkglib = pg_config_value('--pkglibdir', $pgc);
	my $share  = pg_config_value('--sharedir',  $pgc);
	return sort grep { !m{/bitcode/} }
	  map { s{^\Q$pkglib\E/}{pkglibdir/}r =~ s{^\Q$share\E/}{sharedir/}r } @paths;
}

# run_package LOG, ARG...: scripts/package ARG..., its output in LOG (shown when it fails); true when
# it succeeded
sub run_package
{
	my ($log, @args) = @_;
	my ($rc, $out) = run_cmd('scripts/package', @args);
	open my $fh, '>', $log or die "$log: $!";
	print $fh $out;
	close $fh;
	diag($out) if $rc != 0;
	return $rc == 0;
}

# The optimisation the library is compiled with, on every major: PGXS compiles C++ with this
# server's CXXFLAGS (its Makefile.global), whose last -O is -O2 everywhere, on the source-built
# servers too, whose own C is compiled at -O1 (scripts/build/pg-build)
{
	my $global = dirname(pg_config_value('--pgxs', $pg_config)) . '/../Makefile.global';
	my ($cxxflags) = text($global) =~ /^CXXFLAGS = (.*)$/m;
	my @opt = ($cxxflags // '') =~ /(?:^|\s)(-O\S*)/g;
	is($opt[-1] // '<none>', '-O2',
		"PGXS compiles this server's C++ at -O2 (the last -O in CXXFLAGS of $global)");
}

if (($ENV{ULID_IN_CHROOT} // '') eq '1')
{
	# 19 in the sid chroot: a library built against glibc 2.43 is above the floor, and
	# scripts/package refuses to make the archive, saying so (19's archive waits for 19.0 on
	# Debian 12)
	my ($rc, $out) =
	  run_cmd('scripts/package', 'binaries', $major, '--out', "$work/dist");
	isnt($rc, 0, "scripts/package binaries $major in the sid chroot: refused");
	like(
		$out,
		qr/needs GLIBC_2\.(1[89]|[2-9][0-9])[.0-9]*, above the GLIBC_$floor{GLIBC} floor/,
		'... naming the glibc floor');
	my @made = glob("$work/dist/*.tar.gz");
	cmp_num(scalar(@made), '==', 0, '... and no archive was written');
	note 'release_binaries took ' . (time - $started) . ' s';
	done_testing();
	exit;
}

# ---- the archive of this major
note "the archive of PostgreSQL $major (" . pg_config_value('--version', $pg_config) . ')';
my $t0 = time;
must(run_package("$work/binaries.log", 'binaries', $major, '--out', "$work/dist"),
	"scripts/package binaries $major");
ok(-f "$work/dist/$name.tar.gz",
	"$name.tar.gz, " . (-s "$work/dist/$name.tar.gz" // 0) . ' bytes (' . (time - $t0) . ' s)');
like(text("$work/dist/SHA256SUMS"),
	qr/^[0-9a-f]{64}  \Q$name\E\.tar\.gz$/m, 'SHA256SUMS lists it');

my ($server, $destdir);
if ($source_built)
{
	my $prefix = abs_path(dirname(pg_config_value('--bindir', $pg_config)));
	must_run("a copy of the server install $prefix without the extension's files",
		sub { $server = server_copy($pg_config, "$work/server") });
	like(
		pg_config_value('--pkglibdir', "$server/bin/pg_config") . ' '
		  . pg_config_value('--sharedir', "$server/bin/pg_config"),
		qr{^\Q$server\E/[^ ]+ \Q$server\E/},
		"the copy's pg_config reports the copy's directories");
}
else
{
	note "Debian's $major: the steps stage the files under DESTDIR (nothing is installed into the server)";
	$destdir = "$work/stage";
}
my $tpgc = $source_built ? "$server/bin/pg_config" : $pg_config;

my ($other) = grep {
	-x $_ && `$_ --version` !~ /^PostgreSQL \Q$major\E\./
} (glob('/usr/lib/postgresql/*/bin/pg_config'), glob('/var/cache/ulid-pg/*/bin/pg_config'));

# ---- a user's steps, in the directory of the downloaded files
my $archive = "$name.tar.gz";
if (defined $other)
{
	my $unpacked = "$work/other";
	mkdir $unpacked;
	system('tar', '-xzf', "$work/dist/$archive", '-C', $unpacked);
	my ($rc, $out) = (-1, "no $unpacked/$name/install.sh");
	if (-x "$unpacked/$name/install.sh")
	{
		local $ENV{DESTDIR} = "$work/wrong";
		($rc, $out) = run_cmd("$unpacked/$name/install.sh", $other);
	}
	chomp $out;
	ok($rc != 0 && !-e "$work/wrong",
		'install.sh refuses the pg_config of ' . `$other --version` =~ s/\n//r
		  . " and copies nothing: $out")
	  or diag("exit $rc, $out");
}
else
{
	note 'no server of another major here to show that install.sh refuses it';
}
# docs/install.md quotes these three lines
my $steps = <<'SH';
sha256sum --check --ignore-missing SHA256SUMS
tar -xzf "$ARCHIVE"
"${ARCHIVE%.tar.gz}/install.sh" "$PG_CONFIG"
SH
{
	local $ENV{ARCHIVE}   = $archive;
	local $ENV{PG_CONFIG} = $tpgc;
	local $ENV{DESTDIR};
	if (defined $destdir) { $ENV{DESTDIR} = $destdir }
	else                  { delete $ENV{DESTDIR} }
	my $out = '';
	IPC::Run::run([ 'bash', '-e', '-c', "cd \"\$1\"\n$steps", 'steps', "$work/dist" ],
		'<', \undef, '>&', \$out);
	my $rc = $? >> 8;
	ok($rc == 0,
		"sha256sum --check, tar -xzf, install.sh $tpgc"
		  . (defined $destdir ? " (DESTDIR=$destdir)" : '') . ': '
		  . scalar(grep { /^  \// } split /\n/, $out)
		  . ' files')
	  or diag("the user's steps (exit $rc):\n$out");
}
my $top = "$work/dist/$name";
ok(-f "$top/install.sh" && -x "$top/install.sh", 'install.sh (executable)');
ok(-f "$top/$_", $_)
  for ('README', 'LICENSE', 'pkglibdir/ulid.so', 'sharedir/extension/ulid.control',
	"sharedir/extension/ulid--$version.sql");
like(text("$top/README"), qr/\Qmajor=$major\E/, 'README names the major');
# the archive's extension files (but JIT bitcode) = those `make install` installs for this major
my @want = relative($pg_config, expected_files($pg_config));
my @in_archive;
find(sub { push @in_archive, $File::Find::name =~ s{^\Q$top\E/}{}r if -f },
	"$top/pkglibdir", "$top/sharedir");
is_deeply([ sort grep { !m{/bitcode/} } @in_archive ],
	\@want,
	"the archive's files are those make install installs (" . scalar(grep { m{/} } @want) . ' files)');
if ($source_built)
{
	is_deeply([ relative($tpgc, installed_files($tpgc)) ],
		\@want, "install.sh put them where the copy's pg_config says");
}
else
{
	my @staged;
	find(sub { push @staged, $File::Find::name =~ s{^\Q$destdir\E}{}r if -f }, $destdir)
	  if -d $destdir;
	is_deeply(
		[ sort grep { !m{/bitcode/} } @staged ],
		[ expected_files($pg_config) ],
		"install.sh staged them where Debian's pg_config says");
	my @scripts = grep { !/\.so$/ } expected_files($pg_config);
	my $same = grep { -f $_ && -f "$destdir$_" && text($_) eq text("$destdir$_") } @scripts;
	cmp_num($same, '==', scalar(@scripts),
		"staged SQL scripts and control file identical to the source install's");
}

# ---- what pkglibdir/ulid.so needs at run time
my $so = "$top/pkglibdir/ulid.so";
my (undef, $objdump_p) = run_cmd('objdump', '-p', $so);
my @needed = sort map { (split)[1] } grep { /^\s*NEEDED\s/ } split /\n/, $objdump_p;
note "NEEDED (objdump -p): @needed";
is(join(' ', grep { !/^(libstdc\+\+\.so\.6|libm\.so\.6|libgcc_s\.so\.1|libc\.so\.6)$/ } @needed),
	'', 'it needs nothing but libstdc++.so.6, libm.so.6, libgcc_s.so.1 and libc.so.6');
# ulid_encrypt/ulid_decrypt use the server's OpenSSL: weak references without a symbol version,
# bound to whichever libcrypto (1.1 or 3) the server process has, and none at all where it has none
my (undef, $nm) = run_cmd('nm', '-D', $so);
my @nm = split /\n/, $nm;
is(scalar(grep { my @f = split; @f >= 2 && $f[0] eq 'w' && $f[1] =~ /^EVP_/ } @nm) . ' '
	  . scalar(grep { /EVP_.*@/ } @nm),
	'9 0',
	'OpenSSL\'s EVP functions: 9 weak references, none with a symbol version (no libcrypto needed)');
is(join("\n", grep { /R(UN)?PATH/ } split /\n/, $objdump_p),
	'', 'no RPATH or RUNPATH (nothing points into the build server)');
my (undef, $ldd) = run_cmd('ldd', $so);
unlike($ldd, qr/not found/, 'ldd finds every library') or diag($ldd);

# vcmp A, B: A <=> B as dotted version numbers
sub vcmp
{
	my @a = split /\./, $_[0];
	my @b = split /\./, $_[1];
	while (@a || @b)
	{
		my $c = (shift(@a) // 0) <=> (shift(@b) // 0);
		return $c if $c;
	}
	return 0;
}
my (undef, $objdump_t) = run_cmd('objdump', '-T', $so);
my $install_md = slurp_file('docs/install.md');
for my $sym ('GLIBC', 'GLIBCXX', 'CXXABI')
{
	my %seen;
	$seen{$1} = 1 while $objdump_t =~ /\(${sym}_([0-9.]+)\)/g;
	my ($v) = sort { vcmp($b, $a) } keys %seen;
	ok(!defined $v || vcmp($v, $floor{$sym}) <= 0,
		"newest ${sym}_ symbol version used: " . ($v // 'none') . " (<= ${sym}_$floor{$sym})")
	  or diag("ulid.so uses ${sym}_$v, above the floor ${sym}_$floor{$sym} that docs/install.md states");
	ok(index($install_md, "${sym}_$floor{$sym}") >= 0, "docs/install.md states ${sym}_$floor{$sym}");
}

# ---- the copy's server with the installed archive
if ($source_built)
{
	my $node;
	must_run('a cluster of the copy', sub { $node = copy_node('relbin', $server, $major) });
	is( node_query(
			$node,
			"CREATE EXTENSION ulid; SELECT extversion FROM pg_extension WHERE extname = 'ulid'"),
		$version,
		"CREATE EXTENSION ulid: version $version");
	is(loaded_libs($node, 'postgres'),
		pg_config_value('--pkglibdir', $tpgc) . '/ulid.so',
		'the backend maps ulid.so from the copy only');

	# the regression suite: sql/ and expected/ copied out of the tree, the copy's pg_regress
	$t0 = time;
	my $regress = "$work/regress";
	mkdir $regress;
	system('cp', '-a', 'sql', 'expected', "$regress/") == 0 or diag('cannot copy sql/, expected/');
	my ($opts, $tests) =
	  make_vars($tpgc, "print-regress:\n\t\@echo \"\$(REGRESS_OPTS)\"\n\t\@echo \"\$(REGRESS)\"\n");
	my $pg_regress =
	  dirname(dirname(pg_config_value('--pgxs', $tpgc))) . '/test/regress/pg_regress';
	my $out = '';
	my $passed = ($tests // '') ne '' && IPC::Run::run(
		[
			$pg_regress, '--inputdir=.', '--outputdir=.',
			"--bindir=$server/bin", '--host=' . $node->host,
			'--port=' . $node->port, split(' ', $opts // ''),
			split(' ', $tests)
		],
		'<', \undef, '>&', \$out,
		init => sub { chdir $regress or die "$regress: $!" });
	ok($passed,
		'pg_regress of the copy, against the installed archive: '
		  . join(' ', map { s/^\W+|\W+$//gr } grep { /tests passed/ } split /\n/, $out)
		  . ' (' . (time - $t0) . ' s)')
	  or diag(
		"pg_regress against the installed archive:\n"
		  . tail(30, $out) . "\n"
		  . join("\n", grep { defined } (split /\n/, text("$regress/regression.diffs"))[0 .. 79]) =~ s/\n+$//r);
	$node->stop;
}
note 'release_binaries took ' . (time - $started) . ' s';
done_testing();
