# Restoring a dump where the extension is older than the source's (docs/upgrading.md, "Restoring a
# dump"). pg_dump writes CREATE EXTENSION IF NOT EXISTS ulid without a version, so a target whose
# ulid is older (here 0.2.1, as a server whose newest release is 0.2.1 makes it) keeps it, and the
# objects of a newer release fail: a uuid foreign key to a ulid key, an index on uuid_ulid_ops.
#
# One server of the major under test with this tree installed (0.2.1 is one of its install
# scripts); a source database and three targets, each with ulid 0.2.1:
#   - psql with its defaults: the errors scroll by, psql exits 0, the table takes an orphan row;
#   - the documented restore (pg_restore --exit-on-error --single-transaction; psql -v
#     ON_ERROR_STOP=1 --single-transaction): a non-zero exit, and nothing restored;
#   - the whole recipe (test/suites/recipes/restore_safely.sh, run as it is: the source's version
#     first, then that restore): the target at the source's version, every row, the foreign key and
#     the index.
# psql, pg_dump and pg_restore are the major under test's (its bin directory is first on PATH).

use strict;
use warnings;

use Cwd;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $started = time;
my $recipe  = getcwd() . '/test/suites/recipes/restore_safely.sh';
my $old     = '0.2.1';
my $work    = PostgreSQL::Test::Utils::tempdir;

my $node = PostgreSQL::Test::Cluster->new('restore');
$node->init;
$node->start;
# the programs run below (and the recipe) connect to this server
$ENV{PGHOST} = $node->host;
$ENV{PGPORT} = $node->port;
delete $ENV{PGDATABASE};

my $src     = 'app';
my @targets = ("${src}_defaults", "${src}_loud", "${src}_recipe");

# run_to(NAME, COMMAND...): run COMMAND in $work; its exit status and its stdout and stderr together
# (also kept in $work/NAME.out)
sub run_to
{
	my ($name, @cmd) = @_;
	my $out = '';
	IPC::Run::run(\@cmd, '<', \undef, '>&', \$out, init => sub { chdir $work or die "chdir: $!" });
	PostgreSQL::Test::Utils::append_to_file("$work/$name.out", $out);
	return ($? >> 8, $out);
}

# query(DB, SQL): its output, or the error (a check goes on to the next one, as in a failed restore)
sub query
{
	my ($db, $sql) = @_;
	my ($ret, $out, $err) = $node->psql($db, $sql, on_error_stop => 1);
	return $ret == 0 ? $out : "psql exit status $ret: $err";
}

$node->safe_psql('postgres', "CREATE DATABASE $src");
my ($ret, $stdout, $stderr) = $node->psql(
	$src, "
    CREATE EXTENSION IF NOT EXISTS ulid;
    CREATE TABLE customers (id ulid PRIMARY KEY DEFAULT gen_ulid(), name text NOT NULL);
    CREATE TABLE orders (id bigint PRIMARY KEY, customer_id uuid NOT NULL REFERENCES customers (id));
    CREATE INDEX orders_customer_id ON orders (customer_id uuid_ulid_ops);
    INSERT INTO customers (name) SELECT 'c' || g FROM generate_series(1, 100) g;
    INSERT INTO orders SELECT row_number() OVER (), id::uuid FROM customers, generate_series(1, 3)",
	on_error_stop => 1);
is($ret, 0,
	'the source: customers keyed by ulid, orders referencing them by uuid with a uuid_ulid_ops index')
  or BAIL_OUT("the source could not be made: $stderr");
my $version = $node->safe_psql($src, "SELECT extversion FROM pg_extension WHERE extname = 'ulid'");
note "source: ulid $version; targets start with ulid $old";
for my $db (@targets)
{
	$node->safe_psql('postgres', "CREATE DATABASE \"$db\" TEMPLATE template0");
	$node->safe_psql($db, "CREATE EXTENSION ulid VERSION '$old'");
}
my $orphan = "INSERT INTO orders VALUES (0, '00000000-0000-0000-0000-000000000001')";
my $tables = "SELECT count(*) FROM pg_class WHERE relname IN ('customers', 'orders')";

note 'psql with its defaults';
my ($rc, $out) = run_to('dump', 'pg_dump', '-d', $src, '-f', "$work/app.sql");
BAIL_OUT("pg_dump failed: $out") if $rc != 0;
($rc, $out) = run_to('defaults', 'psql', '-X', '-q', '-d', $targets[0], '-f', "$work/app.sql");
is($rc, 0, "psql's exit status");
my @errors = grep { /ERROR:/ } split /\n/, $out;
cmp_ok(scalar @errors, '>', 0, 'errors that scrolled by');
note "  $_" for @errors;
($ret, $stdout, $stderr) = $node->psql($targets[0], "$orphan; SELECT 'accepted'", on_error_stop => 1);
is($stdout . $stderr, 'accepted', 'the table took an order of no customer');

note 'the documented restore, without the version first';
($rc, $out) = run_to('dump', 'pg_dump', '-Fc', '-d', $src, '-f', "$work/app.dump");
BAIL_OUT("pg_dump -Fc failed: $out") if $rc != 0;
($rc, $out) = run_to('loud', 'pg_restore', '--exit-on-error', '--single-transaction', '-d', $targets[1],
	"$work/app.dump");
isnt($rc, 0, 'pg_restore --exit-on-error --single-transaction: exit status');
note((grep { /error/ } split /\n/, $out)[0] // '(no error printed)');
is(query($targets[1], $tables), '0', 'nothing restored (tables in the target)');
($rc, $out) = run_to('loud2', 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '-d',
	$targets[1], '-f', "$work/app.sql");
isnt($rc, 0, 'psql -v ON_ERROR_STOP=1 --single-transaction: exit status');
is(query($targets[1], $tables), '0', 'nothing restored by psql either');

note 'the recipe (recipes/restore_safely.sh): the version first, then the restore';
{
	local $ENV{SOURCE_DB} = $src;
	local $ENV{TARGET_DB} = $targets[2];
	($rc, $out) = run_to('recipe', 'bash', $recipe);
}
if (!is($rc, 0, "the recipe's exit status"))
{
	note "  $_" for split /\n/, $out;
}
is(query($targets[2], "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"),
	$version, "the target's ulid");
is( query(
		$targets[2],
		"SELECT (SELECT count(*) FROM customers) || ',' || (SELECT count(*) FROM orders)"),
	'100,300',
	'every row (customers, orders)');
my $rows = "SELECT md5(string_agg(id::text || customer_id::text, ',' ORDER BY id)) FROM orders";
is(query($targets[2], $rows), query($src, $rows), "the rows are the source's");
($ret, $stdout, $stderr) = $node->psql($targets[2], $orphan, on_error_stop => 1);
like(
	$stderr,
	qr/violates foreign key constraint "orders_customer_id_fkey"/,
	'an order of no customer is refused');
is( query(
		$targets[2], "SELECT c.opcname FROM pg_index i JOIN pg_opclass c ON c.oid = i.indclass[0]
                      WHERE i.indexrelid = 'orders_customer_id'::regclass"),
	'uuid_ulid_ops',
	'the index on uuid_ulid_ops');

note 'restore_older_release took ' . (time - $started) . ' s';
$node->stop;

done_testing();
