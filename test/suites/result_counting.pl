# How scripts/test reads results (scripts/lib/counts.sh), checked on real output: whether a TAP
# file passed, failed or skipped itself, and the count of a pass that ran as a process of its own.
#
#   - tap_verdict on what `make installcheck REGRESS= TAP_TESTS=1 PROVE_TESTS=FILE
#     PROVE_FLAGS=--verbose` prints for small TAP files of its own, run through PGXS in a scratch
#     directory as scripts/test runs a suite: a file that passes is PASSED, one that skips itself
#     (plan skip_all) SKIPPED, one with a skipped test inside (SKIP block) PASSED, one whose notes
#     print a line that reads like prove's "skipped:" report PASSED, one that fails or bails out
#     FAILED;
#   - pass_summary and pass_count on the output of a pass: the count of the last summary block (a pass in the sid
#     chroot prints the chroot's summary first, and warnings may follow the count), with and without
#     ", N skipped"; none (status 1) when the output has no summary block or no count after it.
# Static: starts no server (PGXS's prove needs only pg_config).
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))

use strict;
use warnings;

use Cwd qw(getcwd);
use File::Path qw(make_path);
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../../t/lib";
use UlidTest;

my $started = time;
chdir "$FindBin::RealBin/../.." or die "cannot go to the top of the tree: $!";
my $top  = getcwd();
my $work = PostgreSQL::Test::Utils::tempdir;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';

# lib FUNCTION, ARGS...: FUNCTION of scripts/lib/counts.sh run on ARGS: its exit status and output
sub lib
{
	my ($function, @args) = @_;
	my ($rc, $out) = run_cmd('bash', '-c', 'source "$1"; shift; "$@"',
		'_', "$top/scripts/lib/counts.sh", $function, @args);
	chomp $out;
	return ($rc, $out);
}

note 'tap_verdict on the output of TAP files run as scripts/test runs a suite';
my $dir = "$work/pgxs";
make_path("$dir/t");
PostgreSQL::Test::Utils::append_to_file("$dir/Makefile",
	"TAP_TESTS = 1\nPGXS := \$(shell \$(PG_CONFIG) --pgxs)\ninclude \$(PGXS)\n");
# each file: its text and the verdict on it
my %files = (
	'pass.pl' => [ "use Test::More;\nok(1, 'one');\ndone_testing();\n", 'PASSED' ],
	'skipall.pl' => [ "use Test::More;\nplan skip_all => 'nothing to run here';\n", 'SKIPPED' ],
	'subskip.pl' => [
		"use Test::More;\nok(1, 'one');\nSKIP: { skip 'not here', 1; ok(1, 'two'); }\ndone_testing();\n",
		'PASSED'
	],
	'notes.pl' => [
		"use Test::More;\nnote 't/other.pl .. skipped: a note';\ndiag('1..0 # SKIP a diagnostic');\nok(1, 'one');\ndone_testing();\n",
		'PASSED'
	],
	'fail.pl' => [ "use Test::More;\nok(1, 'one');\nok(0, 'two');\ndone_testing();\n", 'FAILED' ],
	'bail.pl' => [ "use Test::More;\nok(1, 'one');\nBAIL_OUT('stop');\n", 'FAILED' ],);
for my $f (sort keys %files)
{
	my ($text, $want) = @{ $files{$f} };
	PostgreSQL::Test::Utils::append_to_file("$dir/t/$f", $text);
	my ($rc, $out) = run_cmd('make', '-C', $dir, '-s', 'installcheck', "PG_CONFIG=$pg_config",
		'REGRESS=', 'TAP_TESTS=1', "PROVE_TESTS=t/$f", 'PROVE_FLAGS=--verbose');
	note $out;
	PostgreSQL::Test::Utils::append_to_file("$work/$f.log", $out);
	my (undef, $verdict) = lib('tap_verdict', "$work/$f.log", $rc);
	is($verdict, $want, "t/$f (make exit $rc): $want");
}

note 'pass_summary and pass_count on the output of a pass';
my %logs = (
	'the last summary (the chroot printed its own first), warnings after the count' => [
		"==> lane 1\n======== summary ========\nPG 19: 9 passed\n9 passed, 9 failed, 9 skipped\n"
		  . "more output\n======== summary ========\nPG 19 (PostgreSQL 19rc1): 3 passed, 0 failed, 1 skipped in 5 s\n"
		  . "3 passed, 0 failed, 1 skipped\n==> sid-chroot: could not unmount /proc\n",
		0, '3 0 1'
	],
	'a count without skips' =>
	  [ "======== summary ========\nFAILED: PG 17: suite x\n5 passed, 2 failed\n", 0, '5 2 0' ],
	'no summary block' => [ "5 passed, 2 failed\n", 1, '' ],
	'no count after the last summary block' =>
	  [ "======== summary ========\n5 passed, 2 failed\n======== summary ========\nkilled\n", 1, '' ],);
my $n = 0;
for my $case (sort keys %logs)
{
	my ($text, $want_rc, $want_out) = @{ $logs{$case} };
	my $log = "$work/pass" . $n++ . '.log';
	PostgreSQL::Test::Utils::append_to_file($log, $text);
	my (undef, $summary) = lib('pass_summary', $log);
	my ($rc, $out) = lib('pass_count', $summary);
	is("$rc:$out", "$want_rc:$want_out", "pass_count, $case: status $want_rc, '$want_out'");
}

note 'result_counting took ' . (time - $started) . ' s';
done_testing();
