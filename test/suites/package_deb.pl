# The Debian package, installed as a user installs it (docs/install.md "From a Debian package").
#
# On every major, the source package's own checks:
#   - debian/changelog's newest entry is ulid.control's default_version (`scripts/package check`),
#     and that check fails, naming the fix, in a copy whose default_version was bumped;
#   - debian/control is what debian/control.in gives for Debian 12's PostgreSQL (pg_buildext
#     checkcontrol);
#   - the previous release's tag is found (`scripts/package previous-tag`: the newest v* tag older
#     than default_version); a checkout without tags, or without the tag of the release that
#     debian/changelog names before the current one, is refused with a message saying so.
# In the pass of Debian's own PostgreSQL 15 (the .debs are built for Debian's servers), with the
# source install of scripts/test moved aside first and put back at the end:
#   - `scripts/package deb`: source package and postgresql-15-ulid, built, installed into debian/
#     and regression-tested by pg_buildext, and lintian with no error and no warning; the .deb holds
#     the files `make install` installs, and its Depends come from ${postgresql:Depends}
#     (postgresql-15) and ${shlibs:Depends} (libc6, libstdc++6);
#   - `apt-get install ./postgresql-15-ulid_*.deb` on a server without the extension: installed,
#     CREATE EXTENSION ulid gives default_version, the backend maps the package's ulid.so, and the
#     whole regression suite (pg_regress) passes against the packaged files; `apt-get purge` leaves
#     no file of the package behind;
#   - upgrade: the package of the previous release (built from its tag with this debian/), a
#     database with the extension at that version and a table keyed by ulid, then the new package
#     over it and ALTER EXTENSION ulid UPDATE: default_version, the rows unchanged, the index
#     clean (amcheck), new keys above the old, and the extension's catalog that of a fresh install;
#   - autopkgtest (debian/tests: pg_buildext installcheck against the installed package) with the
#     null runner passes; a final purge leaves nothing behind;
#   - as root, dpkg-buildpackage in a directory the user postgres cannot read (mktemp -d) stops
#     before compiling, saying why and what to change (debian/rules).
# The same in the pass of 19, in the sid chroot (scripts/sid-chroot), for postgresql-19-ulid (built
# for 19 alone, though 18's headers are there too), the upgrade from 0.5.0's package (the first
# release that builds against 19) included.
# About 3 minutes in the 15 pass (two package builds), a few seconds in the others.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))
#
# The pass that builds the package runs as root (apt-get, dpkg) and needs a server of that major
# with its database for the packaged extension: the file runs itself again inside a throwaway
# cluster of Debian's server, made by pg_virtualenv (-t: in a temporary directory, on a free port),
# which drops it at the end. The other passes need no server. The major is PG_CONFIG's; the
# commands a user types (docs/install.md quotes them from here) name postgresql-15-ulid, read as
# postgresql-19-ulid in the sid chroot.

use strict;
use warnings;

use File::Spec;

# free_port: a TCP port nothing listens on and no socket of a server in /var/run/postgresql or /tmp
# uses (random, to keep concurrent runs apart)
sub free_port
{
	my %used;
	for my $f ('/proc/net/tcp', '/proc/net/tcp6')
	{
		open(my $fh, '<', $f) or next;
		<$fh>;
		while (<$fh>)
		{
			my @w = split;
			$used{ hex((split /:/, $w[1])[-1]) } = 1 if @w > 3 && $w[3] eq '0A';
		}
	}
	for (1 .. 100)
	{
		my $port = 20000 + int(rand(30000));
		next
		  if $used{$port}
		  || -e "/var/run/postgresql/.s.PGSQL.$port.lock"
		  || -e "/tmp/.s.PGSQL.$port.lock";
		return $port;
	}
	die 'no free TCP port found';
}

# The pass that builds the package: Debian's server of the major the .debs are for (15; in the sid
# chroot the major under test). Outside a cluster, this file runs itself again inside one
# (pg_virtualenv, as root too in a temporary directory), up to three times when the cluster does
# not come up (a port taken in between); inside it, the cluster's connection is kept aside here,
# before PostgreSQL::Test::Utils removes the PG* variables it finds.
our ($MAJOR, $DEB_MAJOR, $SOURCE_BUILT, %CLUSTER);

BEGIN
{
	my $pgc = $ENV{PG_CONFIG} // 'pg_config';
	($MAJOR) = (`$pgc --version` // '') =~ /^PostgreSQL (\d+)/;
	die "cannot tell the major of $pgc\n" unless defined $MAJOR;
	$DEB_MAJOR = ($ENV{ULID_IN_CHROOT} // '') eq '1' ? $MAJOR : 15;
	$SOURCE_BUILT = 0;
	if (open(my $fh, '<', 'scripts/pins/pg-versions'))
	{
		while (<$fh>)
		{
			my @f = split;
			$SOURCE_BUILT = 1 if @f && $f[0] eq $MAJOR;
		}
	}
	if ($MAJOR eq $DEB_MAJOR && !$SOURCE_BUILT)
	{
		if (defined $ENV{ULID_DEB_CLUSTER})
		{
			open(my $m, '>', $ENV{ULID_DEB_CLUSTER}) or die "$ENV{ULID_DEB_CLUSTER}: $!";
			close $m;
			%CLUSTER = map { $_ => $ENV{$_} } grep { defined $ENV{$_} }
			  qw(PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE);
		}
		else
		{
			my $marker = File::Spec->tmpdir . "/ulid-deb-cluster.$$";
			my $self   = File::Spec->rel2abs($0);
			for my $attempt (1 .. 3)
			{
				unlink $marker;
				my $port = free_port();
				my $pid  = fork // die "fork: $!";
				if ($pid == 0)
				{
					$ENV{ULID_DEB_CLUSTER} = $marker;
					$ENV{PGPORT}           = $port;
					$ENV{PERL5LIB}         = join(':', grep { !ref } @INC);
					# the cluster in C.UTF-8 and UTF8 whatever the caller's locale (the test modules
					# remove LC_ALL inside)
					$ENV{LC_ALL} = 'C.UTF-8';
					delete @ENV{
						qw(PGCLUSTER PGSERVICE PGSERVICEFILE PGOPTIONS PGHOSTADDR PGDATA
						  PGSYSCONFDIR PG_CLUSTER_CONF_ROOT)
					};
					exec('pg_virtualenv', '-t', '-v', $DEB_MAJOR, $^X, $self, @ARGV)
					  or die "pg_virtualenv: $!";
				}
				local @SIG{qw(TERM INT HUP)} = (sub { kill 'TERM', $pid }) x 3;
				waitpid($pid, 0);
				my $status = $?;
				if (-e $marker)
				{
					unlink $marker;
					exit($status & 127 ? 1 : $status >> 8);
				}
				print STDERR "# the throwaway cluster did not start (attempt $attempt, port $port, "
				  . 'exit ' . ($status >> 8) . ")\n";
			}
			print "not ok 1 - a throwaway cluster of PostgreSQL $DEB_MAJOR (pg_virtualenv)\n1..1\n";
			exit 1;
		}
	}
}

use File::Basename qw(basename dirname);
use File::Path qw(make_path remove_tree);
use File::Temp;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../../t/lib";
use UlidTest;
use PkgInstall;

my $started = time;

# the system's temporary directory, before pkg_begin points TMPDIR into the test's own
my $sys_tmp = File::Spec->tmpdir;
my ($pgc, undef, $version, $work) = pkg_begin;
@ENV{ keys %CLUSTER } = values %CLUSTER;
my $in_chroot = ($ENV{ULID_IN_CHROOT} // '') eq '1';
# Debian 12's PostgreSQL is 15: the literal commands below are a user's
my $pkg = "postgresql-$DEB_MAJOR-ulid";
# the sid chroot of 19 (scripts/sid-chroot): the package is built for this major alone, as a
# packager targets one (pg_buildext's PG_SUPPORTED_VERSIONS), though the chroot has 18's headers too
$ENV{PG_SUPPORTED_VERSIONS} = $MAJOR if $in_chroot;

# ---- helpers

# tail N, TEXT: TEXT's last N lines
sub tail
{
	my ($n, $text) = @_;
	my @l = split /\n/, $text // '';
	return join("\n", @l > $n ? @l[ -$n .. -1 ] : @l);
}

# indented TEXT: TEXT with each line indented, for a diagnostic
sub indented { return join("\n", map { "  $_" } split /\n/, $_[0] // ''); }

# run_in DIR, COMMAND...: run_cmd in DIR (a missing DIR or command: status 127 and why)
sub run_in
{
	my ($dir, @cmd) = @_;
	return (127, "no directory $dir") unless -d $dir;
	my $out = '';
	my $ran = eval {
		IPC::Run::run(\@cmd, '<', \undef, '>&', \$out, init => sub { chdir $dir or die "$dir: $!" });
		1;
	};
	return $ran ? ($? >> 8, $out) : (127, "$cmd[0]: $@");
}

# user LINE: the words of a command a user types in the directory of the files (docs/install.md
# quotes it), with postgresql-15-ulid read as this pass's package and each word with a * replaced by
# the names it matches there (kept as it is when none does, as the shell does)
sub user
{
	my ($dir, $line) = @_;
	my @words;
	for my $w (split ' ', $line)
	{
		$w =~ s/postgresql-15-ulid/$pkg/g;
		my @m = $w =~ /\*/ ? map { s{^\Q$dir\E/}{./}r } glob($dir . '/' . ($w =~ s{^\./}{}r)) : ();
		push @words, @m ? @m : $w;
	}
	return @words;
}

# the three commands of a user, as docs/install.md quotes them
my $apt_install = 'apt-get install ./postgresql-15-ulid_*.deb';
my $apt_purge   = 'apt-get purge postgresql-15-ulid';
my $autopkgtest = 'autopkgtest ./postgresql-ulid_*.dsc ./postgresql-15-ulid_*.deb -- null';

# installed: the package is installed, or removed with its configuration left
sub installed
{
	my ($rc, $st) = run_cmd('dpkg-query', '-W', '-f=${db:Status-Abbrev}', $pkg);
	return $rc == 0 && $st =~ /^[ir]/;
}

# dpkg_version: the package's status and version, as "ii  0.6.0-1"
sub dpkg_version
{
	my (undef, $out) = run_cmd('dpkg-query', '-W', '-f=${db:Status-Abbrev} ${Version}', $pkg);
	return $out;
}

# psql DB, ARG...: psql's output and errors in DB, chomped
sub psql
{
	my ($db, @args) = @_;
	my (undef, $out) = run_cmd('psql', '-X', '-q', '-At', '-d', $db, @args);
	chomp $out;
	return $out;
}

# admin SQL...: statements in the database postgres (notices off), an error as a diagnostic
sub admin
{
	my $out = psql('postgres', '-c', 'SET client_min_messages = warning', map { ('-c', $_) } @_);
	diag($out) if $out ne '';
	return;
}

# the source install moved aside (pkg_aside) lives outside the test's directory, which is removed
# at the end: what could not be put back stays there
my ($aside, $ours) = (undef, 0);

# n_installed: how many of the extension's files the server has
sub n_installed
{
	my @f = installed_files($pgc);
	return scalar @f;
}

# pkg_aside DIR: move the extension's files installed in the server (the source install of
# scripts/test) into DIR, each at its absolute path under it, their list in DIR/.list
sub pkg_aside
{
	my ($dir) = @_;
	my $pkglib = pg_config_value('--pkglibdir', $pgc);
	my @files  = installed_files($pgc);
	open(my $fh, '>', "$dir/.list") or die "$dir/.list: $!";
	print $fh map { "$_\n" } @files;
	close $fh or die "$dir/.list: $!";
	for my $f (@files)
	{
		make_path(dirname("$dir$f"));
		system('mv', $f, "$dir$f") == 0 or die "cannot move $f to $dir$f";
	}
	system('find', "$pkglib/bitcode/ulid", '-depth', '-type', 'd', '-empty', '-delete')
	  if -d "$pkglib/bitcode/ulid";
	return scalar @files;
}

# pkg_restore DIR: put back what pkg_aside moved into DIR; true when all of it is back
sub pkg_restore
{
	my ($dir) = @_;
	return 1 unless -f "$dir/.list";
	my $good = 1;
	for my $f (split /\n/, text("$dir/.list"))
	{
		next unless -e "$dir$f";
		make_path(dirname($f));
		system('mv', '-f', "$dir$f", $f) == 0 or $good = 0;
	}
	unlink "$dir/.list" if $good;
	return $good;
}

# on the way out (an end, a failed set-up step, a signal): the package purged if this pass
# installed it (the pass of another major, which scripts/test may run at the same time, must not
# purge it), the source install put back
END
{
	local $?;
	if ($ours && installed())
	{
		my ($rc) = run_cmd(user($sys_tmp, $apt_purge));
		print "# WARNING: could not purge $pkg\n" if $rc != 0;
	}
	if (defined $aside)
	{
		if (pkg_restore($aside)) { remove_tree($aside) }
		else { print "# WARNING: could not put the source install back from $aside\n" }
	}
}
$SIG{$_} = sub { note 'interrupted'; exit 143 }
  for qw(TERM INT HUP);

# apt-get as a user types it, without questions
{
	open(my $fh, '>', "$work/apt.conf") or die "$work/apt.conf: $!";
	print $fh qq{APT::Get::Assume-Yes "true";\nDPkg::Lock::Timeout "900";\n};
	close $fh or die "$work/apt.conf: $!";
}
$ENV{APT_CONFIG}       = "$work/apt.conf";
$ENV{DEBIAN_FRONTEND} = 'noninteractive';

# ---- debian/ (checked in every pass)
note 'debian/ (checked in every pass)';
{
	my ($rc, $out) = run_cmd('scripts/package', 'check');
	chomp $out;
	ok($rc == 0, 'scripts/package check: ' . ($out =~ s/^==> package: //r)) or diag($out);
}
system('mkdir', '-p', "$work/bumped") == 0
  && system('cp', '-a', 'scripts', 'debian', 'ulid.control', "$work/bumped/") == 0
  or diag('cannot copy scripts, debian and ulid.control');

# bump DIR: DIR/ulid.control's default_version set to 9.9.9
sub bump
{
	my ($dir) = @_;
	my $control = text("$dir/ulid.control") =~ s/^default_version = .*$/default_version = '9.9.9'/mr;
	open(my $fh, '>', "$dir/ulid.control") or die "$dir/ulid.control: $!";
	print $fh $control;
	close $fh or die "$dir/ulid.control: $!";
	return;
}
bump("$work/bumped");
{
	my ($rc, $out) = run_cmd("$work/bumped/scripts/package", 'check');
	ok($rc != 0 && $out =~ /default_version is 9\.9\.9.*dch -v 9\.9\.9-1/s,
		'with default_version bumped to 9.9.9 and no changelog entry, it fails and names the fix')
	  or diag("scripts/package check with a bumped default_version: exit $rc: $out");
}
make_path("$work/control");
system('cp', '-a', 'debian', "$work/control/") == 0 or diag('cannot copy debian/');
if ($in_chroot)
{
	# the sid chroot of 19: its control, generated from debian/control.in by pg_buildext, lists 19
	my ($rc, $out) = run_in("$work/control", 'pg_buildext', 'updatecontrol');
	if ($rc == 0)
	{
		is( join(' ', text("$work/control/debian/control") =~ /^Package: (.*)$/mg),
			"postgresql-$MAJOR-ulid",
			"debian/control generated for PostgreSQL $MAJOR (pg_buildext updatecontrol): its binary packages"
		);
	}
	else
	{
		fail("pg_buildext updatecontrol for PostgreSQL $MAJOR failed");
		diag($out);
	}
}
else
{
	local $ENV{PG_SUPPORTED_VERSIONS} = 'default';
	my ($rc, $out) = run_in("$work/control", 'pg_buildext', 'checkcontrol');
	my $n = () = text('debian/control') =~ /^Package:/mg;
	ok($rc == 0, "debian/control is what debian/control.in gives for Debian 12 ($n binary package)")
	  or diag("debian/control is not what debian/control.in gives (pg_buildext updatecontrol):\n"
		  . indented($out));
}
my $prev;
{
	# the tag on standard output; scripts/package may say on standard error which release tags it
	# made from scripts/pins/releases
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'scripts/package', 'previous-tag' ], '<', \undef, '>', \$out, '2>', \$err);
	my $rc = $? >> 8;
	chomp $out;
	my ($older) =
	  $out =~ /^v(.+)$/ ? run_cmd('dpkg', '--compare-versions', $1, 'lt', $version) : (1);
	if (ok($rc == 0 && $older == 0, "the previous release: $out (default_version $version)"))
	{
		$prev = $out;
	}
	else
	{
		diag("scripts/package previous-tag: exit $rc: $out$err");
	}
}
# a checkout without tags: the same files in a repository of their own
my $notags = "$work/notags";
my @git    = ('git', '-C', $notags, '-c', 'user.name=t', '-c', 'user.email=t@localhost');
make_path($notags);
system('cp', '-a', 'scripts', 'debian', 'ulid.control', "$notags/") == 0
  && system('git', '-C', $notags, 'init', '-q') == 0
  && system('git', '-C', $notags, 'add', '-A') == 0
  && system(@git, 'commit', '-q', '-m', 'notags') == 0
  or diag("cannot make the checkout without tags in $notags");

# refused NAME, MESSAGE: previous-tag in the checkout without tags fails and says MESSAGE
sub refused
{
	my ($name, $message) = @_;
	my ($rc, $out) = run_cmd("$notags/scripts/package", 'previous-tag');
	ok($rc != 0 && index($out, $message) >= 0, $name) or diag("exit $rc: $out");
	return;
}
refused('a checkout without tags: refused, saying to fetch them', 'git fetch --tags');
# ... and one whose changelog names release X (here: default_version bumped to 9.9.9 with its
# entry, so X is today's release) while only an older tag is there: refused, naming the tag
bump($notags);
{
	my (undef, $maint) = run_cmd('dpkg-parsechangelog', '-l', 'debian/changelog', '-S', 'Maintainer');
	my (undef, $date) = run_cmd('date', '-R');
	chomp($maint, $date);
	open(my $fh, '>', "$notags/debian/changelog") or die "$notags/debian/changelog: $!";
	print $fh "postgresql-ulid (9.9.9-1) unstable; urgency=medium\n\n  * Test.\n\n"
	  . " -- $maint  $date\n\n"
	  . text('debian/changelog');
	close $fh or die "$notags/debian/changelog: $!";
}
system(@git, 'commit', '-q', '-am', 'bump') == 0
  && system('git', '-C', $notags, 'tag', 'v0.0.1') == 0
  or diag("cannot commit and tag in $notags");
refused(
	"a checkout that lacks the tag of the release the changelog names before 9.9.9: refused, naming v$version",
	"lists release $version, but this clone has no tag v$version");

if ($MAJOR ne $DEB_MAJOR || $SOURCE_BUILT)
{
	note "PostgreSQL $MAJOR: the .deb is built and installed in the pass of Debian's PostgreSQL 15";
	note 'package_deb took ' . (time - $started) . ' s';
	done_testing();
	exit;
}
$ours = 1;
note "PostgreSQL $MAJOR, in a throwaway cluster on port $ENV{PGPORT} (pg_virtualenv)";

# ---- dpkg-buildpackage as root in a directory the user postgres cannot read (docs/install.md)
note 'dpkg-buildpackage as root in a directory the user postgres cannot read (docs/install.md)';
if ($> == 0)
{
	my $private = File::Temp::tempdir(DIR => $work);    # mode 700, as mktemp makes it
	my $src     = "$private/postgresql-ulid";
	mkdir $src;
	system('cp', '-a', 'Makefile', 'ulid.control', glob('ulid--*.sql'),
		'META.json', 'README.md', 'LICENSE', 'src', 'sql', 'expected', 'debian', "$src/") == 0
	  or diag("cannot copy the tree into $src");
	system('find', $src, '(', '-name', '*.o', '-o', '-name', '*.bc', '-o', '-name', '*.so', '-o',
		'-name', '.build-flavour', ')', '-delete');
	my $t0 = time;
	# debian/control for the majors built here, as scripts/package makes it (the same file on
	# Debian 12)
	local $ENV{PG_SUPPORTED_VERSIONS} = $ENV{PG_SUPPORTED_VERSIONS} // 'installed';
	my (undef, $log) = run_in($src, 'pg_buildext', 'updatecontrol');
	my ($rc, $out) = run_in($src, 'timeout', '600', 'dpkg-buildpackage', '-us', '-uc', '-b');
	$log .= $out;
	my $mode = sprintf('%o', (stat $private)[2] & 07777);
	cmp_num($rc, '!=', 0, "dpkg-buildpackage in $mode $private: exit status $rc");
	ok( index($log,
			"debian/rules: the build-time tests run the server as the user postgres, who cannot read $src."
		) >= 0,
		'it says why and what to change') or diag(tail(30, $log));
	my $objects = () = `find '$src' -name '*.o'`;
	cmp_num($objects, '==', 0, "it stopped before compiling (object files made): $objects");
	note 'it stopped after ' . (time - $t0) . ' s';
	remove_tree($private);
}
else
{
	note 'not root: pg_virtualenv runs the build-time server as this user, who reads the tree';
}

# ---- scripts/package deb
note 'scripts/package deb (the source install moved aside: the package\'s own tests see only its files)';
$aside = File::Temp::tempdir('ulid-deb-aside.XXXXXX', DIR => $sys_tmp);
must_run('move the source install aside (' . n_installed() . ' files)',
	sub { pkg_aside($aside) });
my $t0 = time;
{
	my ($rc, $out) = run_cmd('scripts/package', 'deb', '--out', "$work/dist");
	ok($rc == 0, 'scripts/package deb: built, tested by pg_buildext, lintian clean (' . (time - $t0) . ' s)')
	  or diag("scripts/package deb (exit $rc):\n" . indented(tail(60, $out)));
	note "  $_" for grep { /^(### PostgreSQL|.*tests passed|[EWI]: |==> package: lintian)/ } split /\n/, $out;
}
my ($deb) = sort glob("$work/dist/${pkg}_$version-*.deb");
if (!defined $deb)
{
	fail("no ${pkg}_$version-*.deb");
	done_testing();
	exit 1;
}
{
	my (undef, $deps) = run_cmd('dpkg-deb', '-f', $deb, 'Depends');
	chomp $deps;
	note "Depends: $deps";
	like($deps, qr/(^|, )postgresql-$DEB_MAJOR(,|$| )/, "Depends: postgresql-$DEB_MAJOR (\${postgresql:Depends})");
	like(
		$deps,
		qr/libc6 \(>= [0-9.]+\).*libstdc\+\+6|libstdc\+\+6.*libc6 \(>= [0-9.]+\)/,
		'Depends: libc6 and libstdc++6 (${shlibs:Depends})');
	my (undef, $list) = run_cmd('dpkg-deb', '-c', $deb);
	my @files = sort grep { m{/ulid\.so$|/extension/ulid} }
	  map { (split)[5] =~ s{^\./}{/}r } grep { !/^d/ } split /\n/, $list;
	my @want = expected_files($pgc);
	same_lines(join("\n", @files), join("\n", @want),
		'the .deb holds the files make install installs (' . scalar(@want) . ', and JIT bitcode)');
}

# ---- install, use, purge
note 'install, use, purge';
{
	my ($rc, $out) = run_in("$work/dist", user("$work/dist", $apt_install));
	ok($rc == 0 && installed(), $apt_install) or diag('apt-get install: ' . tail(20, $out));
}
like(dpkg_version(), qr/^ii  \Q$version\E-[0-9]+$/, "dpkg: installed at $version-N");
my @owned = split /\n/, (run_cmd('dpkg', '-L', $pkg))[1];
admin('DROP DATABASE IF EXISTS deb_fresh', 'CREATE DATABASE deb_fresh');
is(psql('deb_fresh', '-c', 'CREATE EXTENSION ulid', '-c', "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"),
	$version, "CREATE EXTENSION ulid: version $version");
{
	my $maps = psql('deb_fresh', '-v', 'ON_ERROR_STOP=1', '-c', 'SELECT gen_ulid() IS NOT NULL',
		'-c', "SELECT pg_read_file('/proc/self/maps')");
	my %libs = map { $_ => 1 } $maps =~ m{(/[^ \n]*ulid[^ \n]*\.so)}g;
	is(join("\n", sort keys %libs), pg_config_value('--pkglibdir', $pgc) . '/ulid.so',
		"the backend maps the package's ulid.so")
	  or diag($maps =~ /ERROR/ ? $maps : '');
}
$t0 = time;
{
	# the regression suite: sql/ and expected/ copied out of the tree, the server's pg_regress,
	# REGRESS and REGRESS_OPTS as the Makefile has them
	my $regress = "$work/regress";
	make_path($regress);
	system('cp', '-a', 'sql', 'expected', "$regress/") == 0 or diag('cannot copy sql/, expected/');
	system('chmod', '-R', 'a+rX', $regress);
	my $bindir = pg_config_value('--bindir', $pgc);
	my ($opts, $tests) =
	  make_vars("$bindir/pg_config", "print-regress:\n\t\@echo \"\$(REGRESS_OPTS)\"\n\t\@echo \"\$(REGRESS)\"\n");
	my $pg_regress = dirname(dirname(pg_config_value('--pgxs', $pgc))) . '/test/regress/pg_regress';
	my ($rc, $out) = (1, 'no REGRESS in the Makefile');
	($rc, $out) = run_in(
		$regress, $pg_regress, '--inputdir=.', '--outputdir=.', "--bindir=$bindir",
		"--host=$ENV{PGHOST}", "--port=$ENV{PGPORT}", "--user=$ENV{PGUSER}",
		split(' ', $opts // ''), split(' ', $tests)) if ($tests // '') ne '';
	ok($rc == 0,
		'pg_regress against the packaged files: '
		  . join(' ', map { s/^\s+|\s+$//gr } grep { /tests passed/ } split /\n/, $out)
		  . ' (' . (time - $t0) . ' s)')
	  or diag("pg_regress against the packaged files:\n"
		  . indented(tail(30, $out)) . "\n"
		  . indented(join("\n", grep { defined } (split /\n/, text("$regress/regression.diffs"))[ 0 .. 79 ])));
}
admin('DROP DATABASE deb_fresh', 'DROP DATABASE IF EXISTS contrib_regression');

# purged_clean WHEN: no file dpkg -L listed, no directory of its own, not even a dpkg record left
sub purged_clean
{
	my ($when) = @_;
	my @left;
	for my $f (@owned)
	{
		next if $f eq '/.' || !-e $f;
		next if -d $f && (run_cmd('dpkg', '-S', $f))[0] == 0;    # a directory other packages share
		push @left, $f;
	}
	is(join(' ', @left), '', "$when: no file or directory of the package left");
	is(join(' ', installed_files($pgc)), '', "$when: no file of the extension left");
	my (undef, $st) = run_cmd('dpkg-query', '-W', '-f=${db:Status-Abbrev}', $pkg);
	$st = '' if $st =~ /no packages found/;
	$st =~ s/\s//g;
	ok($st eq '' || $st =~ /^[pu]n$/,
		"$when: dpkg: not installed, no configuration left (" . ($st || 'forgotten') . ')')
	  or diag("$when: dpkg status $st");
	return;
}
{
	my ($rc, $out) = run_cmd(user($sys_tmp, $apt_purge));
	ok($rc == 0, $apt_purge) or diag("apt-get purge: $out");
}
purged_clean('after the purge');

# ---- upgrade from the previous release's package
note 'upgrade from the previous release\'s package (' . ($prev // 'none') . ')';
if (!defined $prev)
{
	fail('no previous release: the upgrade is not tested');
}
else
{
	(my $pv = $prev) =~ s/^v//;
	$t0 = time;
	{
		my ($rc, $out) = run_cmd('scripts/package', 'deb', '--previous', '--no-lintian', '--out', "$work/prev");
		ok($rc == 0,
			'scripts/package deb --previous: '
			  . join(' ', map { basename($_) } glob("$work/prev/${pkg}_*.deb"))
			  . ' (' . (time - $t0) . ' s)')
		  or diag("scripts/package deb --previous:\n" . indented(tail(40, $out)));
	}
	{
		my ($rc, $out) = run_in("$work/prev", user("$work/prev", $apt_install));
		ok($rc == 0, "$apt_install (the previous release's)") or diag($out);
	}
	like(dpkg_version(), qr/^ii  \Q$pv\E-[0-9]+$/, "installed: $pv-N");
	admin('DROP DATABASE IF EXISTS deb_upgrade', 'CREATE DATABASE deb_upgrade');
	my $q = sub { psql('deb_upgrade', '-v', 'ON_ERROR_STOP=1', @_) };
	is($q->('-c', 'CREATE EXTENSION ulid', '-c', "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"),
		$pv, "CREATE EXTENSION ulid with the previous package: $pv");
	$q->('-c', 'CREATE TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)',
		'-c', 'INSERT INTO t (n) SELECT g FROM generate_series(1, 20000) g');
	my $rows = 'SELECT count(*), md5(string_agg(id::text, $$,$$ ORDER BY id)), max(id) FROM t';
	my $before = $q->('-c', $rows);
	{
		my ($rc, $out) = run_in("$work/dist", user("$work/dist", $apt_install));
		ok($rc == 0, "$apt_install (the upgrade)") or diag($out);
	}
	like(dpkg_version(), qr/^ii  \Q$version\E-[0-9]+$/, "upgraded to $version-N");
	is($q->('-c', 'ALTER EXTENSION ulid UPDATE', '-c', "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"),
		$version, "ALTER EXTENSION ulid UPDATE: $version");
	is($q->('-c', $rows), $before, 'the rows are unchanged');
	is($q->('-c', 'CREATE EXTENSION IF NOT EXISTS amcheck', '-c', "SELECT bt_index_check('t_pkey', true)"),
		'', 'the primary key index is clean (amcheck)');
	my ($max) = $before =~ /([^|]*)$/;
	is($q->('-c', 'INSERT INTO t (n) VALUES (0)', '-c', "SELECT (SELECT id FROM t WHERE n = 0) > '$max'::ulid"),
		't', 'new keys sort above the old ones');
	admin('DROP DATABASE IF EXISTS deb_fresh', 'CREATE DATABASE deb_fresh');
	psql('deb_fresh', '-c', 'CREATE EXTENSION ulid');
	my $upgraded = $q->('-f', 'test/lib/ulid_describe.sql');
	my $fresh    = psql('deb_fresh', '-f', 'test/lib/ulid_describe.sql');
	same_lines($upgraded, $fresh,
		'after the update the catalog is a fresh install\'s (' . scalar(grep { / / } split /\n/, $fresh) . ' lines)', 40);
	admin('DROP DATABASE deb_upgrade', 'DROP DATABASE deb_fresh');
}

# ---- autopkgtest (debian/tests) against the installed package, null runner
note 'autopkgtest (debian/tests) against the installed package, null runner';
run_in("$work/dist", user("$work/dist", $apt_install)) unless installed();
@owned = split /\n/, (run_cmd('dpkg', '-L', $pkg))[1];
$t0 = time;
{
	# the test makes its own cluster (pg_virtualenv): none of this suite's server settings
	local @ENV{qw(PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE PG_CONFIG PGCLUSTER PG_CLUSTER_CONF_ROOT PGSYSCONFDIR)};
	delete @ENV{qw(PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE PG_CONFIG PGCLUSTER PG_CLUSTER_CONF_ROOT PGSYSCONFDIR)};
	my ($rc, $log) = run_in("$work/dist", user("$work/dist", $autopkgtest));
	my ($after) = $log =~ /\@{20} summary(.*)$/s;
	my $summary = join(' ', grep { /^[^ ]+ +(PASS|FAIL|SKIP|FLAKY)/ } split /\n/, $after // '');
	$summary =~ s/\s+/ /g;
	ok($rc == 0 && $summary =~ /installcheck PASS/, "autopkgtest: $summary (" . (time - $t0) . ' s)')
	  or diag("autopkgtest (exit $rc):\n" . indented(tail(60, $log)));
	note "  $_" for grep { /tests passed/ } split /\n/, $log;
}
{
	my ($rc, $out) = run_cmd(user($sys_tmp, $apt_purge));
	ok($rc == 0, $apt_purge) or diag("apt-get purge: $out");
}
purged_clean('after the upgrade and autopkgtest');

ok(pkg_restore($aside), 'the source install is back (' . n_installed() . ' files)')
  or diag("could not put the source install back from $aside");
note 'package_deb took ' . (time - $started) . ' s';
done_testing();
