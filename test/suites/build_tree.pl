# Where the source builds compile (ulid_build_tree of scripts/lib/common.sh, used by scripts/build/pg-build
# and scripts/build/citus-build): a new empty directory named for the build, under ULID_BUILD_TMP
# (default /dev/shm) when that is a writable directory with 4 GiB free, else under TMPDIR.
#
#   - with 5 GiB free (a df of its own first on PATH prints the free space): under ULID_BUILD_TMP,
#     and with ULID_BUILD_TMP unset under /dev/shm (when this machine has a writable /dev/shm);
#   - with 4 GiB free exactly: under ULID_BUILD_TMP; with 1 KiB less: under TMPDIR;
#   - under TMPDIR too when ULID_BUILD_TMP is empty, names no directory, or df fails;
#   - each call a new directory, empty, named ulid-build-NAME.XXXXXX.
# Static: starts no server.
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))

use strict;
use warnings;

use Cwd qw(getcwd);
use File::Basename qw(basename dirname);
use File::Path qw(make_path remove_tree);
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../../t/lib";
use UlidTest;

my $started = time;
chdir "$FindBin::RealBin/../.." or die "cannot go to the top of the tree: $!";
my $top  = getcwd();
my $work = PostgreSQL::Test::Utils::tempdir;
make_path("$work/ram", "$work/tmp", "$work/bin");

# a df that prints what `df -Pk DIR` prints, with FAKE_DF_FREE kB available, or fails when that is
# "fail"
append_to_file("$work/bin/df", <<'EOF');
#!/bin/sh
[ "$FAKE_DF_FREE" = fail ] && exit 1
echo 'Filesystem 1024-blocks Used Available Capacity Mounted on'
echo "fake 99999999 0 $FAKE_DF_FREE 0% /"
EOF
chmod 0755, "$work/bin/df" or die "chmod: $!";

# build_tree FREE_KB, BUILD_TMP (undef: unset), NAME: the directory ulid_build_tree prints
sub build_tree
{
	my ($free, $build_tmp, $name) = @_;
	local $ENV{PATH}         = "$work/bin:$ENV{PATH}";
	local $ENV{FAKE_DF_FREE} = $free;
	local $ENV{TMPDIR}       = "$work/tmp";
	local $ENV{ULID_BUILD_TMP};
	if (defined $build_tmp) { $ENV{ULID_BUILD_TMP} = $build_tmp }
	else                    { delete $ENV{ULID_BUILD_TMP} }
	my ($rc, $out) = run_cmd('bash', '-c', 'source "$1" && ulid_build_tree "$2"',
		'_', "$top/scripts/lib/common.sh", $name);
	chomp $out;
	is($rc, 0, "ulid_build_tree $name: exit 0") or diag($out);
	return $out;
}

# under DIR, NAME, GOT, WHAT: GOT is a new empty directory DIR/ulid-build-NAME.XXXXXX
sub under
{
	my ($dir, $name, $got, $what) = @_;
	like($got, qr{^\Q$dir\E/ulid-build-\Q$name\E\.[A-Za-z0-9]{6}$}, "$what: $got");
	ok(-d $got && !glob("$got/*"), "... a new empty directory");
}

my $gib = 1024 * 1024;    # kB
under("$work/ram", 'pg16.13', build_tree(5 * $gib, "$work/ram", 'pg16.13'),
	'5 GiB free in ULID_BUILD_TMP: there');
under("$work/ram", 'citus', build_tree(4 * $gib, "$work/ram", 'citus'),
	'4 GiB free exactly: there');
under("$work/tmp", 'pg13.16', build_tree(4 * $gib - 1, "$work/ram", 'pg13.16'),
	'1 kB less: under TMPDIR');
under("$work/tmp", 'x', build_tree(5 * $gib, '', 'x'), 'ULID_BUILD_TMP empty: under TMPDIR');
under("$work/tmp", 'y', build_tree(5 * $gib, "$work/no-such-dir", 'y'),
	'ULID_BUILD_TMP names no directory: under TMPDIR');
under("$work/tmp", 'z', build_tree('fail', "$work/ram", 'z'), 'df fails: under TMPDIR');
my @two = map { build_tree(5 * $gib, "$work/ram", 'same') } 1 .. 2;
isnt($two[0], $two[1], 'two calls with one name: two directories');

SKIP:
{
	skip 'no writable /dev/shm here', 3 unless -d '/dev/shm' && -w '/dev/shm';
	my $got = build_tree(5 * $gib, undef, 'default');
	under('/dev/shm', 'default', $got, 'ULID_BUILD_TMP unset: /dev/shm');
	remove_tree($got) if $got =~ m{^/dev/shm/ulid-build-default\.};
}

note 'build_tree took ' . (time - $started) . ' s';
done_testing();
