# The examples of README.md and docs/*.md (docs/development.md, "Executable documentation"), on a
# server of its own of the major under test (shared_preload_libraries = 'ulid', as
# docs/monotonicity.md asks for gen_monotonic_ulid() on 13-16; TimeZone UTC; ulid.public_id_key,
# the key of docs/public-ids.md's examples).
#
#   - the examples (test/lib/docs.py run): each page's runnable sql blocks run in order, twice, each
#     time in a fresh empty database, through psql -X -q: a block fails on any error unless marked
#     `error` (then it must fail), and a ```text block after it must be its output — values that
#     differ between the two runs (generated ids, times, numbers) match any value of their shape,
#     timings always do, everything else must be as shown;
#   - complete by construction (test/lib/docs.py reference): every member of the installed
#     extension (pg_depend, deptype 'e') has a COMMENT and a row, with that comment, in
#     docs/sql-reference.md's object index, and every row there is a member on this major or says
#     from which major it is one.
# Each "ok"/"FAIL" line of docs.py is one check. The conventions that need no server (info strings,
# quotes, links, the suites' index, README's two commands) are test/suites/docs.pl's.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started = time;

my $node = PostgreSQL::Test::Cluster->new('docs');
$node->init;
$node->append_conf(
	'postgresql.conf', q(
shared_preload_libraries = 'ulid'
timezone = 'UTC'
ulid.public_id_key = '5a0f8d3e2b6c41a79e1d0c3b4a596877'
));
must($node->start(fail_ok => 1),
	"server starts (shared_preload_libraries = 'ulid', TimeZone UTC, the docs' key)");
my $major = node_query($node, "SELECT current_setting('server_version_num')::int / 10000");
must($major =~ /^\d+$/, "the server's major: $major");
note node_query($node, 'SELECT version()');

# docs_py(DATABASE, ARGS...): test/lib/docs.py ARGS against the node's DATABASE; each "ok   " line
# a passing check, each "FAIL " line a failing one, the rest notes; a non-zero exit with no FAIL
# line is a failure of its own
sub docs_py
{
	my ($db, @args) = @_;
	local $ENV{PGHOST}     = $node->host;
	local $ENV{PGPORT}     = $node->port;
	local $ENV{PGDATABASE} = $db;
	delete local $ENV{PGUSER};
	my ($rc, $out) = run_cmd('python3', 'test/lib/docs.py', @args);
	my $failed = 0;
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^ok   (.*)/)
		{
			pass($1);
		}
		elsif ($line =~ /^FAIL (.*)/)
		{
			fail($1);
			$failed++;
		}
		else
		{
			note $line;
		}
	}
	fail("docs.py @args exited with status $rc and no FAIL line") if $rc != 0 && !$failed;
	return;
}

note 'the examples';
docs_py('postgres', 'run', $major);

note 'the SQL reference is complete';
must(node_sql_ok($node, 'CREATE DATABASE docs_reference'), 'a database for the extension');
{
	my ($rc, $out, $err) = $node->psql('docs_reference', 'CREATE EXTENSION ulid');
	diag($err) if $rc != 0;
	must($rc == 0, 'CREATE EXTENSION ulid');
}
docs_py('docs_reference', 'reference', $major);

note 'docs_examples took ' . (time - $started) . ' s';
done_testing();
