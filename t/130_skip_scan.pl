# Skip scan (PostgreSQL 18+): an index led by a ulid column with few distinct values answers a query
# that has no condition on that column, stepping from one ulid value to the next with the b-tree
# skip support function of ulid_ops (support function 6, ulid_skipsupport).
#
# One server of the major under test. Two pairs of tables, each pair with the same 200,000 rows
# (10 ulid "tenants" x n = 1..20,000) and one index on (tenant, n): under ulid_ops, and under
# ulid_noskip_ops, an operator class made here with the same operators and functions but no skip
# support function. "adjacent" tenants are 10 consecutive ulid values (as a burst of gen_ulid() in
# one millisecond makes), "scattered" ones 10 independent random values. For `WHERE n = 777` and
# `WHERE n BETWEEN 100 AND 149`, EXPLAIN (ANALYZE, BUFFERS) must show an index (only) scan of the
# index with `Index Searches` above 1 (a skip scan, not one pass over the whole index; PostgreSQL 18
# skips also without skip support, by probing for the next key), rows equal to a sequential scan's,
# and: adjacent: with skip support at most tenants + 2 index searches, and fewer index searches and
# fewer buffers than without (the increment lands on the next tenant); scattered: no more index
# searches than without (the increment never lands on a value, so each step costs a probe either
# way). Counts of the planner and the index, not times. The numbers seen are printed as notes.
# On majors before 18 the whole file is skipped (plan skip_all, with the reason): no skip scan, and
# ulid_ops has no support function 6 there. About 5 s.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('skip');
$node->init;
$node->start;

# query(SQL): a script run by psql in one session (VACUUM runs outside a transaction); its output
sub query
{
	return $node->safe_psql('postgres', $_[0]);
}

my $server = query('SHOW server_version_num');
if ($server < 180000)
{
	plan skip_all =>
	  'skip scan and b-tree skip support exist from PostgreSQL 18 (this server: '
	  . query('SHOW server_version') . ')';
}

query("SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS ulid;
   DROP SCHEMA IF EXISTS skip CASCADE; CREATE SCHEMA skip");
my $ext = query("SELECT quote_ident(extnamespace::regnamespace::text) FROM pg_extension WHERE extname = 'ulid'");
note query('SELECT version()') . "; ulid in schema $ext";

is( query("SELECT p.amproc::regproc FROM pg_amproc p JOIN pg_opclass c ON c.opcfamily = p.amprocfamily
          JOIN pg_am a ON a.oid = c.opcmethod WHERE c.opcname = 'ulid_ops' AND a.amname = 'btree'
          AND p.amprocnum = 6 AND p.amproclefttype = 'ulid'::regtype"),
	'ulid_skipsupport',
	'ulid_ops (btree) has support function 6');

query("SET search_path = skip, $ext;
CREATE OPERATOR CLASS skip.ulid_noskip_ops FOR TYPE ulid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 ulid_cmp(ulid, ulid), FUNCTION 2 ulid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);");
is( query("SELECT count(*) FROM pg_amproc p JOIN pg_opclass c ON c.opcfamily = p.amprocfamily
          WHERE c.opcname = 'ulid_noskip_ops' AND p.amprocnum = 6"),
	'0',
	'the operator class made here has no support function 6');

# load(SHAPE, TENANTS_SQL): tables SHAPE_with (ulid_ops) and SHAPE_without (ulid_noskip_ops), same rows
sub load
{
	my ($shape, $tenants) = @_;
	query("SET search_path = skip, $ext;
    CREATE TABLE skip.${shape}_with (tenant ulid NOT NULL, n int NOT NULL);
    INSERT INTO skip.${shape}_with SELECT t.id, g FROM ($tenants) t(id), generate_series(1, 20000) g ORDER BY random();
    CREATE TABLE skip.${shape}_without AS SELECT * FROM skip.${shape}_with;
    CREATE INDEX ${shape}_with_idx ON skip.${shape}_with (tenant, n);
    CREATE INDEX ${shape}_without_idx ON skip.${shape}_without (tenant skip.ulid_noskip_ops, n);
    VACUUM (ANALYZE) skip.${shape}_with, skip.${shape}_without;");
	my ($rows, $distinct, $pages) = split /\|/,
	  query("SELECT count(*), count(DISTINCT tenant), pg_relation_size('skip.${shape}_with_idx') / 8192
	     FROM skip.${shape}_with");
	is("$rows,$distinct", '200000,10',
		"$shape: two tables of $rows rows, $distinct tenants, indexes of $pages pages");
	return;
}

# adjacent: 10 consecutive values (one random ulid with its last byte 0..9; e.g. a burst of
# gen_ulid() calls in one millisecond): skip support steps straight from one to the next.
load('adjacent',
	"SELECT overlay(r.id::bytea PLACING decode(lpad(to_hex(k), 2, '0'), 'hex') FROM 16 FOR 1)::ulid
     FROM (SELECT gen_random_ulid() AS id) r, generate_series(0, 9) k");
# scattered: 10 independent random ulids: the next possible value is never there, so every step
# costs a descent either way.
load('scattered', 'SELECT gen_random_ulid() FROM generate_series(1, 10)');

my $settings =
  "SET search_path = skip, $ext; SET enable_seqscan = off; SET enable_bitmapscan = off;"
  . ' SET max_parallel_workers_per_gather = 0;';

# searches(PLAN) / buffers(PLAN): the numbers of the scan node
sub searches
{
	return $_[0] =~ /^\s*Index Searches: (\d+)/m ? $1 : undef;
}

sub buffers
{
	my ($line) = $_[0] =~ /^(\s*Buffers: shared.*)$/m;
	return undef unless defined $line;
	my ($hit)  = $line =~ /hit=(\d+)/;
	my ($read) = $line =~ /read=(\d+)/;
	return ($hit // 0) + ($read // 0);
}

for my $shape ('adjacent', 'scattered')
{
	for my $cond ('n = 777', 'n BETWEEN 100 AND 149')
	{
		note "$shape tenants, WHERE $cond (no condition on tenant)";
		my $want = query("SET search_path = skip, $ext;
		              SELECT count(*) || ',' || sum(n) FROM skip.${shape}_with WHERE $cond");
		my (%s, %b);
		for my $t ("${shape}_with", "${shape}_without")
		{
			query("$settings SELECT count(*) FROM skip.$t WHERE $cond");   # warm: all hits below
			my $plan = query("$settings EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF)
			              SELECT count(*), sum(n) FROM skip.$t WHERE $cond");
			note "    $_" for (grep { /Scan|Searches|Buffers/ } split /\n/, $plan)[ 0 .. 2 ];
			like($plan, qr/Index (Only )?Scan using ${t}_idx/, "$t: an index scan of ${t}_idx");
			$s{$t} = searches($plan);
			$b{$t} = buffers($plan);
			cmp_ok($s{$t} // 0, '>', 1,
				"$t: index searches (more than 1: a skip scan, not one pass over the whole index)");
			is( query("SET search_path = skip, $ext; SET enable_indexscan = off; SET enable_indexonlyscan = off;
			       SELECT count(*) || ',' || sum(n) FROM skip.$t WHERE $cond"),
				$want,
				"$t: rows as a sequential scan's ($want)");
		}
		my ($w, $wo) = ("${shape}_with", "${shape}_without");
		if ($shape eq 'adjacent')
		{
			cmp_ok($s{$w} // 999, '<=', 12,
				"$shape: with skip support, about one index search per tenant (at most tenants + 2)");
			cmp_ok($s{$wo} // 0, '>', $s{$w} // 999,
				"$shape: without skip support, more index searches than with");
			cmp_ok($b{$wo} // 0, '>', $b{$w} // 999,
				"$shape: without skip support, more buffers than with");
		}
		else
		{
			cmp_ok($s{$w} // 999, '<=', $s{$wo} // 0,
				"$shape: with skip support, no more index searches than without");
		}
		note "$shape, WHERE $cond: index searches "
		  . ($s{$w} // '?') . ' with skip support vs '
		  . ($s{$wo} // '?')
		  . ' without; buffers '
		  . ($b{$w} // '?') . ' vs '
		  . ($b{$wo} // '?');
	}
}

query('SET client_min_messages = warning; DROP SCHEMA skip CASCADE');
$node->stop;

done_testing();
