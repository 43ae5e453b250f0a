# Memory suite: no per-call leak in the backend. In ONE backend, after a warm-up pass of every
# workload, each workload makes 10M calls (SELECT count(f(...)) FROM generate_series(1, 10000000)):
# gen_ulid(), gen_random_ulid(), gen_ulid(timestamptz), ulid -> text (id::text), text -> ulid
# (t::ulid), and the type's own ulid_out / ulid_in; the backend's private resident memory (RssAnon
# from /proc/<pg_backend_pid()>/status, read by the backend itself with pg_read_file) measured over
# each half of the calls must not grow in both halves.
#
# RssAnon counts the heap and anonymous mappings, where a leak would be; not VmRSS, which also counts
# the shared-buffer and file pages the backend touches for the first time, and so grew by a step of
# 1 MiB in one run without any leak. A leak grows in both halves (one byte per call is ~5 MB in
# each), while a one-time step of the allocator (RssAnon rose by exactly 1,024 kB once, in one
# workload, in two CI runs on 15, flat before and after) shows in one. A workload fails when both
# halves grow by 512 kB or more; over all workloads, the smaller half of each, added up, must stay
# under 1 MiB. Also checks that every call ran (count = 10M).
#
# One server of the major under test; the measuring session is one psql script (one backend), run
# as the superuser (pg_read_file on /proc). ULID_RSS_CALLS (default 10000000) and ULID_RSS_LIMIT_KB
# (default 1024) change the size and bound. About 20 s on 2 cores (70M calls at ~150 ns each, plus a
# warm-up).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $calls    = $ENV{ULID_RSS_CALLS}    || 10000000;
my $warmup   = int($calls / 10);
my $half     = int($calls / 2);
my $limit_kb = $ENV{ULID_RSS_LIMIT_KB} || 1024;

my $node = PostgreSQL::Test::Cluster->new('rss');
$node->init;
$node->start;

# label, the expression counted per row, the FROM items besides generate_series (g).
# The one-row subqueries with OFFSET 0 keep the constant from being folded at plan time, so the
# cast or I/O function really runs once per row.
my @workloads = (
	[ 'gen_ulid()',        'gen_ulid()',        '' ],
	[ 'gen_random_ulid()', 'gen_random_ulid()', '' ],
	[
		'gen_ulid(timestamptz)', 'gen_ulid(ts)',
		", (SELECT '2026-03-02 12:34:56.789+00'::timestamptz AS ts OFFSET 0) c"
	],
	[
		'ulid -> text (id::text)', 'id::text',
		", (SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid AS id OFFSET 0) c"
	],
	[
		'text -> ulid (t::ulid)', 't::ulid',
		", (SELECT '01arz3ndektsv4rrffq69g5fav'::text AS t OFFSET 0) c"
	],
	[
		'ulid_out(id)', 'ulid_out(id)',
		", (SELECT '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid AS id OFFSET 0) c"
	],
	[
		'ulid_in(cstring)', 'ulid_in(s)',
		", (SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::cstring AS s OFFSET 0) c"
	],);

# The backend's RssAnon in kB, read by the backend itself.
my $rss =
  "(regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'RssAnon:\\s+(\\d+) kB'))[1]::bigint";

# One psql script = one backend for everything below.
my $script = "SET client_min_messages = warning;\n"
  . "CREATE EXTENSION IF NOT EXISTS ulid;\n"
  . "SELECT 'backend|' || pg_backend_pid() || '|' || $rss || '|' || current_setting('jit') || '|' || pg_jit_available();\n";
# Warm-up: one-time allocations (catalog caches, the read-ahead pool, plans) and code pages touched
# for the first time, every workload twice: as it will run (interpreted; a 10M-row query can cost
# enough for JIT on other settings) and JIT-compiled, which loads the JIT provider (libLLVM, some
# 50 MB of mapped code) and the extension's bitcode once.
for my $jit ('off', 'on')
{
	$script .=
	  "SET jit_above_cost = 0; SET jit_inline_above_cost = 0; SET jit_optimize_above_cost = 0;\n"
	  if $jit eq 'on';
	for my $w (@workloads)
	{
		$script .= "SELECT count($w->[1]) FROM generate_series(1, $warmup) g $w->[2] \\g /dev/null\n";
	}
}
$script .= "RESET jit_above_cost; RESET jit_inline_above_cost; RESET jit_optimize_above_cost;\n";
# ... and one query of the full size without any ulid call: what the executor itself keeps after a
# first 10M-row generate_series (its tuplestore spills to a temporary file).
$script .= "SELECT count(*) FROM generate_series(1, $calls) g \\g /dev/null\n";
$script .= "SELECT 'warm|' || $rss;\n";
for my $i (0 .. $#workloads)
{
	my ($expr, $from) = @{ $workloads[$i] }[ 1, 2 ];
	my $rest = $calls - $half;
	$script .= "SELECT $rss AS r0, clock_timestamp() AS t0 \\gset\n"
	  . "SELECT count($expr) AS n1 FROM generate_series(1, $half) g $from \\gset\n"
	  . "SELECT $rss AS r1 \\gset\n"
	  . "SELECT count($expr) AS n2 FROM generate_series(1, $rest) g $from \\gset\n"
	  . "SELECT 'run|$i|' || :r0 || '|' || :r1 || '|' || $rss || '|' || (:n1 + :n2) || '|'\n"
	  . "       || round(extract(epoch FROM clock_timestamp() - :'t0')::numeric, 2);\n";
}
$script .= "SELECT 'end|' || $rss;\n";

note "$calls calls per workload after a warm-up of $warmup; bound: growth < $limit_kb kB";
my ($ret, $out, $err) = $node->psql('postgres', $script, on_error_stop => 1);
if ($ret != 0)
{
	note "psql: $_" for split /\n/, "$out\n$err";
	fail("the measuring session failed (psql exit status $ret)");
	done_testing();
	exit;
}

my %line;
for (split /\n/, $out)
{
	my @f = split /\|/;
	$line{ $f[0] eq 'run' ? "run$f[1]" : $f[0] } = \@f;
}
my (undef, $pid, $rss_start, $jit, $jit_available) = @{ $line{backend} };
my $rss_warm = $line{warm}->[1];
my $rss_end  = $line{end}->[1];
note "backend pid $pid (jit = $jit, JIT available: $jit_available): RssAnon $rss_start kB at start, "
  . "$rss_warm kB after the warm-up, $rss_end kB at the end";

my $smaller_halves = 0;
for my $i (0 .. $#workloads)
{
	my $label = $workloads[$i]->[0];
	my $run   = $line{"run$i"};
	if (!defined $run)
	{
		fail("$label: no measurement");
		next;
	}
	my (undef, undef, $r0, $r1, $r2, $n, $secs) = @$run;
	if ($n != $calls)
	{
		fail("$label: $n calls counted (expected $calls)");
		next;
	}
	my ($g1, $g2) = ($r1 - $r0, $r2 - $r1);
	$smaller_halves += $g1 < $g2 ? $g1 : $g2;
	my $ns = sprintf('%.0f', $secs * 1e9 / $n);
	ok($g1 < $limit_kb / 2 || $g2 < $limit_kb / 2,
		"$label: RssAnon $r0 kB -> $r1 kB -> $r2 kB ($g1 kB, then $g2 kB) over two halves of $n calls "
		  . "in $secs s (~$ns ns per row): not $limit_kb/2 kB or more in both halves");
}
cmp_ok($smaller_halves, '<', $limit_kb,
	    "all workloads, the smaller half of each added up: $smaller_halves kB (RssAnon $rss_warm kB after the warm-up, "
	  . "$rss_end kB at the end, over "
	  . ($calls * @workloads)
	  . ' calls)');

$node->stop;

done_testing();
