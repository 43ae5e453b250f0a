# Version gates: every PG_VERSION_NUM / server_version_num test (and every bare-major comparison in
# shell code) in the code, the SQL scripts, the suites and the scripts names a major N whose both
# sides CI runs: N - 1 (the newest major on the old side) and N (the first on the new side); a side
# below 13, the supported floor, is exempt. scripts/version-gates lists them and checks them against
# ULID_CI_MAJORS (scripts/lib/common.sh), the majors `scripts/test --pg all` (.ci/run) runs.
# Checks:
#   - scripts/test's --pg all is ULID_CI_MAJORS and .ci/run runs --pg all (the list checked is CI's);
#   - the tree: gates found, none with a side CI does not run (the table is printed);
#   - the check can fail: in a scratch copy of the tree, a planted C gate at 20, a planted
#     server_version_num gate at 20 in a suite and a planted shell comparison with 20 are each
#     reported, and nothing else is; with 14 left out of the majors, every gate naming 14 or 15
#     (14 is the old side of 15's) is reported, and nothing else;
#   - the light pass (scripts/lib/common.sh): scripts/version-gates --sides FILE gives for each
#     suite the sides of its own gates in the table; ulid_light_pass leaves a suite out of a light
#     pass unless that major is one of them or the suite is of ULID_EVERY_MAJOR, never under
#     ULID_FULL_PASS=1 or when the gates cannot be read; a gate planted in the scratch copy brings
#     its suite into the light passes of its sides; ulid_light_major says which passes are light
#     (16 and 18, not 15 or 19; none under ULID_FULL_PASS=1);
#   - the tiers in the sid chroot: ulid_tier_in_chroot says the server and packaging tiers run in
#     the pass of 19 there and the clients tier does not (ULID_HOST_ONLY_TIERS), and
#     scripts/pins/sid-packages holds the packages of ULID_CLIENT_PACKAGES exactly when it does.
# Static: needs no server (it runs in every major's pass; about 1 s).
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))

use strict;
use warnings;

use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Find;
use File::Path qw(make_path);
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../../t/lib";
use UlidTest;

my $started = time;
chdir "$FindBin::RealBin/../.." or die "cannot go to the top of the tree: $!";
my $work = PostgreSQL::Test::Utils::tempdir;

# lines TEXT, REGEX: the lines of TEXT that match REGEX
sub lines
{
	my ($text, $re) = @_;
	return grep { /$re/ } split /\n/, $text;
}

note "the majors checked are CI's";
ok(index(slurp_file('scripts/test'), 'ALL_MAJORS=("${ULID_CI_MAJORS[@]}")') >= 0,
	'scripts/test: --pg all is ULID_CI_MAJORS');
like(slurp_file('.ci/run'), qr{scripts/test"? --pg all}, '.ci/run runs scripts/test --pg all');
my $majors = '';
IPC::Run::run([ 'bash', '-c', 'source scripts/lib/common.sh; echo "${ULID_CI_MAJORS[*]}"' ],
	'<', \undef, '>', \$majors);
chomp $majors;
note "ULID_CI_MAJORS: $majors";

note 'the tree';
my ($rc, $tree) = run_cmd('scripts/version-gates');
note $tree;
is($rc, 0, 'scripts/version-gates on the tree: exit status');
{
	my $found = scalar(lines($tree, qr/^(ok  |FAIL) /));
	cmp_num($found, '>=', 40, "gates found: $found");
}
is(scalar(lines($tree, qr/^FAIL /)), 0, 'gates with a side CI does not run');

note 'the check fails on a gate CI cannot prove (a scratch copy of the tree)';
my $copy = "$work/tree";
{
	my @files;
	my $list = '';
	if (IPC::Run::run([ 'git', 'ls-files', '-z' ], '<', \undef, '>', \$list, '2>', \my $err))
	{
		@files = split /\0/, $list;
	}
	else
	{
		find(
			{
				no_chdir => 1,
				wanted   => sub {
					if ($_ eq './.git') { $File::Find::prune = 1; return; }
					push @files, substr($_, 2) if -f $_;
				}
			},
			'.');
	}
	for my $f (grep { -f $_ } @files)
	{
		make_path(dirname("$copy/$f"));
		copy($f, "$copy/$f") or die "cannot copy $f: $!";
	}
}

# planted: 20 is a major CI does not run (the numbers are built here so this file holds none)
append_to_file("$copy/src/pg/compat.h", sprintf("#if PG_VERSION_NUM >= %d\n#endif\n", 20 * 10000));
# a line of Perl (a TAP suite's), written out
append_to_file("$copy/t/210_pg_upgrade.pl",
	sprintf("if (query(q{SHOW server_version_num}) >= %d) { }\n", 20 * 10000));
# a line of bash, written out (scripts/test: a shell file that stays)
append_to_file("$copy/scripts/test", sprintf("if ((major >= %d)); then :; fi\n", 19 + 1));
{
	# the copy is no git checkout: scripts/version-gates reads every file of it. Git must not look
	# above it, into this checkout, where the copy is an untracked directory (no file of it listed).
	local $ENV{GIT_CEILING_DIRECTORIES} = $work;
	my ($rc, $planted) = run_cmd('scripts/version-gates', '--root', $copy);
	is($rc, 1, 'planted gates: exit status');
	my @fails = sort map { s/^FAIL ([^:]+):[0-9]+: gate at ([0-9]+);.*/$1 $2/r }
	  lines($planted, qr/^FAIL /);
	is("@fails", 'scripts/test 20 src/pg/compat.h 20 t/210_pg_upgrade.pl 20',
		'planted gates: exactly the three planted lines are reported');
	note join("\n", lines($planted, qr/^FAIL /));
}

{
	my $without14 = join(',', grep { $_ ne '14' } split ' ', $majors);
	my ($rc, $no14) = run_cmd('scripts/version-gates', '--majors', $without14);
	is($rc, 1, "CI without 14 ($without14): exit status");
	is(scalar(grep { !/gate at 1[45];/ } lines($no14, qr/^FAIL /)),
		0, 'CI without 14: the gates reported are those naming 14 or 15');
	is(scalar(lines($no14, qr/^FAIL /)),
		scalar(lines($tree, qr/^ok   .*gate at 1[45];/)),
		'CI without 14: ... all of them');
}

note 'the sides a light pass runs a suite on (scripts/version-gates --sides, ulid_light_pass)';
{
	# each suite's sides are those of its lines in the table: N - 1 and N of each gate, from 13
	my %want;
	for (lines($tree, qr/^ok   t\/[^:]+\.pl:/))
	{
		my ($f, $n) = /^ok   ([^:]+):[0-9]+: gate at ([0-9]+);/ or next;
		$want{$f}{$_} = 1 for grep { $_ >= 13 } $n - 1, $n;
	}
	cmp_num(scalar(keys %want), '>=', 5, 'suites with gates of their own');
	my @differ;
	for my $f (sort glob 't/[0-9]*.pl')
	{
		my ($rc, $out) = run_cmd('scripts/version-gates', '--sides', $f);
		my $got  = join ' ', split ' ', $out;
		my $need = join ' ', sort { $a <=> $b } keys %{ $want{$f} // {} };
		push @differ, "$f: --sides says '$got' (exit $rc), its gates '$need'" if $rc != 0 || $got ne $need;
	}
	is_deeply(\@differ, [], 'scripts/version-gates --sides FILE: the sides of the gates of FILE, for every suite');
	my ($rc, $out) = run_cmd('scripts/version-gates', '--sides', 't/no_such_suite.pl');
	isnt($rc, 0, '--sides of a file not in the tree: an error');

	# light_pass ROOT, SUITE, MAJOR: 'out' when ulid_light_pass leaves SUITE out of MAJOR's pass
	my $light_pass = sub {
		my ($root, $suite, $major) = @_;
		my ($rc, $out) = run_cmd('bash', '-c',
			'source "$1/scripts/lib/common.sh" && if ulid_light_pass "$2" "$3"; then echo out; else echo in; fi',
			'-', $root, $suite, $major);
		chomp $out;
		return $out;
	};
	local $ENV{ULID_FULL_PASS};
	delete $ENV{ULID_FULL_PASS};
	is($light_pass->('.', 'physical_replication', 16), 'out', 'a suite without a gate: out of the light pass of 16');
	is($light_pass->('.', 'physical_replication', 15), 'in',  '... in the full pass of 15');
	is($light_pass->('.', 'logical_replication', 13), 'in', 'a suite with a gate at 14: in the light pass of 13');
	is($light_pass->('.', 'logical_replication', 17), 'out', '... out of the light pass of 17');
	is($light_pass->('.', 'upgrade_paths', 17), 'in', 'upgrade_paths (ULID_EVERY_MAJOR): in the light pass of 17');
	is($light_pass->('.', 'physical_replication', 18), 'out', 'a suite without a gate: out of the light pass of 18');
	is($light_pass->('.', 'physical_replication', 19), 'in',  '... in the full pass of 19');
	is($light_pass->('.', 'uuid_foreign_keys', 18), 'in', 'a suite with a gate at 19: in the light pass of 18');
	is($light_pass->('.', 'logical_upgrade', 18), 'in', 'logical_upgrade (ULID_EVERY_MAJOR, no gate): in the light pass of 18');
	is($light_pass->('.', 'no_such_suite', 16), 'in', 'a suite whose gates cannot be read: not left out');
	# common_sh_says(FUNCTION, ARG, YES, NO): YES when scripts/lib/common.sh's FUNCTION ARG is true
	my $common_sh_says = sub {
		my ($function, $arg, $yes, $no) = @_;
		my ($rc, $out) = run_cmd('bash', '-c',
			'source scripts/lib/common.sh && if "$1" "$2"; then echo "$3"; else echo "$4"; fi',
			'-', $function, $arg, $yes, $no);
		chomp $out;
		return $out;
	};
	# light_major MAJOR: 'light' when ulid_light_major says MAJOR's pass is light (scripts/test then
	# shortens monotonic_shared's rounds, ULID_MONO_SECONDS=2)
	my $light_major = sub { $common_sh_says->('ulid_light_major', $_[0], 'light', 'full') };
	is($light_major->(16), 'light', 'ulid_light_major: the pass of 16 is light');
	is($light_major->(18), 'light', '... and that of 18');
	is($light_major->(15), 'full',  '... that of 15 is full');
	is($light_major->(19), 'full',  '... and that of 19');
	{
		local $ENV{ULID_FULL_PASS} = 1;
		is($light_pass->('.', 'physical_replication', 16), 'in', 'ULID_FULL_PASS=1: every suite in every pass');
		is($light_major->(16), 'full', 'ULID_FULL_PASS=1: no pass is light');
	}
	# in_chroot TIER: 'in' when ulid_tier_in_chroot says TIER's suites run in the sid chroot's pass
	my $in_chroot = sub { $common_sh_says->('ulid_tier_in_chroot', $_[0], 'in', 'out') };
	is($in_chroot->('server'),    'in',  'ulid_tier_in_chroot: the server tier runs in the chroot (19)');
	is($in_chroot->('packaging'), 'in',  '... and the packaging tier');
	is($in_chroot->('clients'),   'out', '... the clients tier does not (ULID_HOST_ONLY_TIERS)');
	# the chroot carries the clients' packages exactly when the clients tier runs there
	my (undef, $clients) = run_cmd('bash', '-c',
		'source scripts/lib/common.sh && printf "%s\n" "${ULID_CLIENT_PACKAGES[@]}"');
	my %pinned = map { (split ' ')[0] => 1 }
	  grep { !/^\s*(#|$)/ } split /\n/, slurp_file('scripts/pins/sid-packages');
	my @clients = split ' ', $clients;
	my @in_chroot = grep { $pinned{$_} } @clients;
	cmp_num(scalar(@clients), '>', 5, 'ULID_CLIENT_PACKAGES read');
	is("@in_chroot", $in_chroot->('clients') eq 'in' ? "@clients" : '',
		'scripts/pins/sid-packages holds ULID_CLIENT_PACKAGES exactly when the clients tier runs in the chroot');
	# a gate planted in the scratch copy moves the suite into the light passes on its sides
	append_to_file("$copy/t/020_physical_replication.pl",
		sprintf("if (query(q{SHOW server_version_num}) >= %d) { }\n", 17 * 10000));
	local $ENV{GIT_CEILING_DIRECTORIES} = $work;
	is($light_pass->($copy, 'physical_replication', 16), 'in', 'a planted gate at 17: in the light pass of 16');
	is($light_pass->($copy, 'physical_replication', 14), 'out', '... and still out of that of 14');
}

note 'version_gates took ' . (time - $started) . ' s';
done_testing();
