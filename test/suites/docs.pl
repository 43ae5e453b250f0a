# Executable documentation (docs/development.md, "Executable documentation"): README.md and
# docs/*.md as the convention says.
#
#   - static (test/lib/docs.py check, which also checks that test/suites/README.md's index is the
#     suites' headers' first paragraphs): every ```sql and ```sh block's info string uses only the
#     convention's words; a `norun file=<path>` block is verbatim in <path> and some suite runs
#     <path>; an `error` block has its output block; every relative link (file and #anchor) resolves;
#   - the examples and the SQL reference's object index, which need a server of their own, are
#     t/200_docs_examples.pl's;
#   - the two commands of README.md (its ```sh ci block): .ci/run runs scripts/test, and
#     scripts/demo without a terminal (ULID_SKIP_PACKAGES=1 ULID_SKIP_BUILD=1: the extension is
#     installed already) prints its tour and exits 0.
# One check per "ok"/"FAIL" line of docs.py and per command; docs.py's other lines are notes.
# Tier: static (checks of the tree itself, run once per run (scripts/test --tier static))

use strict;
use warnings;

use IPC::Run;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../../t/lib";
use UlidTest;

my $started = time;
chdir "$FindBin::RealBin/../.." or die "cannot go to the top of the tree: $!";
# scripts/demo makes its own throwaway cluster: nothing of the caller's server may reach it
# (PostgreSQL::Test::Utils removes most of these already)
delete @ENV{
	qw(PGHOST PGHOSTADDR PGPORT PGUSER PGPASSWORD PGDATABASE PGSERVICE PGSERVICEFILE PGOPTIONS
	  PGPASSFILE PGSSLMODE PGCONNECT_TIMEOUT PGTARGETSESSIONATTRS PGDATA PGCLUSTER)
};

# docs_py ARGS...: run test/lib/docs.py, one check per "ok   "/"FAIL " line, its other lines as
# notes (as diagnostics after a FAIL: they are its detail)
sub docs_py
{
	my (@args) = @_;
	my ($rc, $out) = run_cmd('python3', 'test/lib/docs.py', @args);
	my ($after_fail, $failed) = (0, 0);
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^ok   (.*)$/)
		{
			pass($1);
			$after_fail = 0;
		}
		elsif ($line =~ /^FAIL (.*)$/)
		{
			fail($1);
			($after_fail, $failed) = (1, 1);
		}
		elsif ($after_fail)
		{
			diag($line);
		}
		else
		{
			note($line);
		}
	}
	# docs.py exits non-zero only after a FAIL line; otherwise it stopped on an error of its own
	fail("test/lib/docs.py @args: exit status $rc without a FAIL line") if $rc != 0 && !$failed;
	return;
}

note 'static: info strings, quotes, links';
docs_py('check');

# the major under test (scripts/test exports it; else the pg_config first on PATH, which scripts/test
# and PGXS make the major under test's)
my $major = $ENV{ULID_PG_MAJOR};
if (!$major)
{
	my ($rc, $version) = run_cmd('pg_config', '--version');
	($major) = $version =~ /^PostgreSQL ([0-9]+)/m;
	$major //= '';
}

note "README's two commands";
like(
	PostgreSQL::Test::Utils::slurp_file('.ci/run'),
	qr{(^|/)scripts/test"? }m,
	'.ci/run runs scripts/test');
# every scripts/test command line the docs show parses (run with --help appended: it stops there)
{
	my $list = '';
	IPC::Run::run([ 'python3', 'test/lib/docs.py', 'ci' ], '<', \undef, '>', \$list);
	for my $line (split /\n/, $list)
	{
		my @cmd = split ' ', $line;
		next unless @cmd && $cmd[0] eq 'scripts/test';
		my ($rc, $out) = run_cmd('bash', @cmd, '--help');
		ok($rc == 0 && $out =~ m{scripts/test}, "the docs' command '@cmd' is one scripts/test takes")
		  or diag('scripts/test refuses it: ' . ((split /\n/, $out)[-1] // ''));
	}
}
{
	local $ENV{ULID_SKIP_PACKAGES} = 1;
	local $ENV{ULID_SKIP_BUILD}    = 1;
	local $ENV{ULID_PG_MAJOR}      = $major;
	my ($rc, $out) = run_cmd('timeout', '300', 'scripts/demo');
	my @end = split /\n/, $out;
	splice(@end, 0, @end - 20) if @end > 20;
	ok($rc == 0 && $out =~ /ulid_to_timestamp/,
		'scripts/demo without a terminal shows its tour and exits 0')
	  or diag(join("\n", "scripts/demo exited with status $rc; its output ends:", @end));
}

note 'docs took ' . (time - $started) . ' s';
done_testing();
