# The install steps README.md and docs/install.md show, run as they are written
# (test/suites/recipes/install_from_source.sh and install_from_archive.sh), each in a scratch copy
# of the working tree, with DESTDIR and PG_CONFIG in the environment (make reads both) so that
# `make install` stages the files instead of writing into the server, and apt-get a command of the
# suite's own, first in PATH, that runs `apt-get --simulate` (the package names must resolve;
# nothing is installed or upgraded):
#   - from source: apt-get install of the named packages, make, make install: ulid.so,
#     ulid.control and the install script staged;
#   - from a release archive: make dist, unzip, make && make install in the unpacked directory: the
#     same files staged.
# The recipes name Debian's PostgreSQL 15; README says every other major builds the same way with
# its own pg_config, so in every pass they run against the major under test (PG_CONFIG), staging
# only. Needs git and unzip (scripts/test installs them; a failure without). Two full builds:
# about 60 s.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))

use strict;
use warnings;

use Cwd qw(abs_path);
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../../t/lib";
use UlidTest;

my $started   = time;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my ($major)   = pg_config_value('--version', $pg_config) =~ /^PostgreSQL (\d+)/;
my $recipes   = abs_path('test/suites/recipes');
my ($wanted)  = slurp_file("$recipes/install_from_source.sh") =~ /^apt-get install (.*)$/m;
note "PostgreSQL $major; the recipes' packages: " . ($wanted // '');

# in_path NAME: the first executable NAME in PATH (undef when there is none)
sub in_path
{
	my ($name) = @_;
	my ($path) = grep { -f $_ && -x _ } map { "$_/$name" } split /:/, $ENV{PATH};
	return $path;
}

for my $tool (qw(git unzip))
{
	must(0, "$tool is installed (scripts/test installs it)") unless in_path($tool);
}
my $work = PostgreSQL::Test::Utils::tempdir;

# The recipes are typed at a prompt: no variable of the make that runs this suite (REGRESS=,
# PROVE_TESTS=, ...) reaches the makes they run.
delete @ENV{qw(MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL)};

# snapshot DIR: the working tree's tracked and not-ignored files, committed in a new repository;
# dies when a step fails
sub snapshot
{
	my ($dir) = @_;
	my ($list, $err) = ('', '');
	IPC::Run::run([ 'git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard' ],
		'<', \undef, '>', \$list, '2>', \$err)
	  or die "git ls-files: $err";
	# (a tracked file deleted in the working tree is not copied)
	my $files = join '', map { "$_\0" } grep { -e $_ } split /\0/, $list;
	mkdir $dir or die "$dir: $!";
	IPC::Run::run([ 'tar', '--null', '-T', '-', '-cf', '-' ],
		'<', \$files, '|', [ 'tar', '-xf', '-', '-C', $dir ], '2>', \$err)
	  or die "tar: $err";
	for my $git ([ 'init', '-q' ], [ 'add', '-A' ],
		[ '-c', 'user.name=install-steps', '-c', 'user.email=install-steps@localhost',
			'commit', '-q', '-m', 'snapshot' ])
	{
		my ($rc, $out) = run_cmd('git', '-C', $dir, @$git);
		die "git @$git: $out" if $rc != 0;
	}
	return;
}

# staged DESTDIR: the extension's files make install did not stage there (one line each, empty
# when all are)
my $default_version = slurp_file('ulid.control') =~ /^default_version = '(.*)'$/m ? $1 : '';
my $pkglibdir       = pg_config_value('--pkglibdir', $pg_config);
my $extdir          = pg_config_value('--sharedir', $pg_config) . '/extension';

sub staged
{
	my ($dest) = @_;
	return join '', map { -f "$dest$_" ? () : "missing: $_\n" } "$pkglibdir/ulid.so",
	  "$extdir/ulid.control", "$extdir/ulid--$default_version.sql";
}

# apt-get as the recipes run it: simulated (resolves the names, changes nothing). On a system whose
# archive has no PostgreSQL 15 (the sid chroot of 19), the recipe's names are those of the major
# under test, as a user there would write them (README: another major, its own packages and
# pg_config).
my ($show_rc, $show) = (1, '');
eval {
	IPC::Run::run([ 'apt-cache', 'show', 'postgresql-15' ],
		'<', \undef, '>', \$show, '2>', \my $ignored);
	$show_rc = $?;
};
my $args = '"$@"';
if ($show_rc != 0 || $show !~ /\S/)
{
	note "this archive has no postgresql-15: the recipe's apt-get line names postgresql-${major}'s packages instead";
	$args = "\"\${\@//-15/-$major}\"";
}
my $real_apt_get = in_path('apt-get') // '/usr/bin/apt-get';
mkdir "$work/bin" or die "$work/bin: $!";
PostgreSQL::Test::Utils::append_to_file("$work/bin/apt-get",
	"#!/usr/bin/env bash\nexec '$real_apt_get' --simulate $args\n");
chmod 0755, "$work/bin/apt-get" or die "$work/bin/apt-get: $!";

# recipe NAME, DIR: runs recipes/NAME in DIR as written, DESTDIR and PG_CONFIG in the environment;
# true when it succeeded, and its output (also in $work/<name>.log)
sub recipe
{
	my ($name, $dir) = @_;
	(my $base = $name) =~ s/\.sh$//;
	local $ENV{DESTDIR}   = "$work/stage-$base";
	local $ENV{PG_CONFIG} = $pg_config;
	local $ENV{PATH}      = "$work/bin:$ENV{PATH}";
	my $out = '';
	my $good = IPC::Run::run([ 'bash', '-euo', 'pipefail', "$recipes/$name" ],
		'<', \undef, '>&', \$out, init => sub { chdir $dir or die "$dir: $!" });
	PostgreSQL::Test::Utils::append_to_file("$work/$base.log", $out);
	return ($good, $out);
}

for my $name ('install_from_source.sh', 'install_from_archive.sh')
{
	(my $base = $name) =~ s/\.sh$//;
	note '';
	note "recipes/$name (PG_CONFIG=$pg_config, DESTDIR=$work/stage-$base)";
	must_run('a snapshot of the working tree', sub { snapshot("$work/tree-$base") });
	my ($good, $out) = recipe($name, "$work/tree-$base");
	if (ok($good, "recipes/$name ran without an error"))
	{
		cmp_num(scalar(grep { /^Inst |is already the newest version/ } split /\n/, $out),
			'>=', 1, 'apt-get --simulate: packages it would install or upgrade (the names resolve)')
		  if slurp_file("$recipes/$name") =~ /^apt-get /m;
	}
	else
	{
		my @lines = split /\n/, $out;
		splice(@lines, 0, @lines - 20) if @lines > 20;
		diag(join("\n", "recipes/$name failed; its output ends:", @lines));
	}
	my $missing = staged("$work/stage-$base");
	ok($missing eq '', 'make install staged ulid.so, ulid.control and the install script')
	  or diag("make install did not stage everything:\n$missing");
}

note 'install_steps took ' . (time - $started) . ' s';
done_testing();
