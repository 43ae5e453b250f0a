# Shell scripts: shellcheck over every shell script of the tree, at severity warning, following
# the files each one sources. A shell script is a tracked file named *.sh, or one whose first line
# runs bash or sh, or names the shell for shellcheck (`# shellcheck shell=bash`: the libraries that
# are sourced); the recipes the docs quote have no #! line and are checked as bash. One check per script. The
# check can fail: a planted script with a `cd` whose failure goes unnoticed (SC2164) and a variable
# used as an array and then as a string (SC2178) is reported with both codes, and a clean planted
# script with nothing.
#
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))
# Needs shellcheck (Debian's) and git. A script's findings are the diagnostic of its failed check.

use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../../t/lib";
use UlidTest;

my $started = time;
chdir "$FindBin::RealBin/../.." or die "cannot go to the top of the tree: $!";
my $work = PostgreSQL::Test::Utils::tempdir;

must((run_cmd('sh', '-c', 'command -v shellcheck'))[0] == 0,
	'shellcheck is installed (apt-get install shellcheck)');
must((run_cmd('git', 'rev-parse', '--git-dir'))[0] == 0,
	'the tree is a git checkout (its tracked files are the ones checked)');

# first_line FILE: its first line, without the newline ('' when it is empty or unreadable)
sub first_line
{
	my ($f) = @_;
	open(my $fh, '<', $f) or return '';
	my $line = <$fh> // '';
	close $fh;
	chomp $line;
	return $line;
}

# shell_scripts: the tracked shell scripts, in git's order
sub shell_scripts
{
	my $list = '';
	IPC::Run::run([ 'git', 'ls-files', '-z' ], '<', \undef, '>', \$list)
	  or die 'git ls-files failed';
	return grep {
		-f $_
		  && (/\.sh$/ || first_line($_) =~ m{^#!.*[/ ](ba)?sh( |$)|^# shellcheck shell=})
	} split /\0/, $list;
}

# check_scripts FILE...: shellcheck at severity warning, one line "FILE:LINE:COL: LEVEL: TEXT [SCNNNN]" a finding
sub check_scripts
{
	my (@args) = @_;
	my (undef, $out) = run_cmd('shellcheck', '-x', '-S', 'warning', '-f', 'gcc', @args);
	return $out;
}

my @scripts = shell_scripts();
# a floor that only catches a finder gone wrong (the suites have left bash for Perl)
cmp_num(scalar(@scripts), '>=', 30, 'shell scripts found: ' . scalar(@scripts));
# the recipes the docs quote have no #! line (they are steps a reader types or pastes; the docs
# quote them whole): checked as bash, and a cd without a check is what a reader at a prompt sees fail
my @recipe = grep { first_line($_) !~ /^#!|^# shellcheck shell=/ } @scripts;
my @others = grep { first_line($_) =~ /^#!|^# shellcheck shell=/ } @scripts;
my $findings = check_scripts(@others);
$findings .= "\n" . check_scripts('-s', 'bash', '-e', 'SC2164', @recipe) if @recipe;
my @findings = grep { /./ } split /\n/, $findings;
my %attributed;
for my $f (@scripts)
{
	my @mine = grep { index($_, "$f:") == 0 } @findings;
	$attributed{$_} = 1 for @mine;
	ok(!@mine, @mine ? "$f: " . scalar(@mine) . ' finding(s)' : $f)
	  or diag(join("\n", map { "  $_" } @mine));
}
# what shellcheck printed about no listed script (a file it could not read, its own failure)
{
	my @rest = grep { !$attributed{$_} } @findings;
	is(scalar(@rest), 0, "lines of shellcheck's output that name no listed script")
	  or diag(join("\n", @rest));
}

note 'the check can fail (planted scripts)';
append_to_file("$work/planted.sh", <<'EOF');
#!/usr/bin/env bash
dirs=(a b)
cd "$1"
dirs="c"
echo "$dirs"
EOF
append_to_file("$work/clean.sh", <<'EOF');
#!/usr/bin/env bash
cd "$1" || exit
echo "${2:-}"
EOF
my $planted = check_scripts("$work/planted.sh");
ok(index($planted, '[SC2164]') >= 0, 'a cd without a check is reported') or diag($planted);
ok(index($planted, '[SC2178]') >= 0, 'an array then a string is reported') or diag($planted);
is(check_scripts("$work/clean.sh"), '', 'the clean script: nothing reported');

note 'shellcheck took ' . (time - $started) . ' s';
done_testing();
