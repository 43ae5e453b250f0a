#!/usr/bin/env bash
# Memory suite: no per-call leak in the backend. In ONE backend, after a warm-up pass of every
# workload, each workload makes 10M calls (SELECT count(f(...)) FROM generate_series(1, 10000000)):
#   gen_ulid(), gen_random_ulid(), gen_ulid(timestamptz), ulid -> text (id::text), text -> ulid
#   (t::ulid), and the type's own ulid_out / ulid_in;
# the backend's private resident memory (RssAnon from /proc/<pg_backend_pid()>/status, read by the
# backend itself with pg_read_file: heap and anonymous mappings, where a leak would be; not VmRSS,
# which also counts the shared-buffer and file pages the backend touches for the first time, and
# so grew by a step of 1 MiB in one run without any leak), measured over each half of the calls:
# a leak grows in both halves (one byte per call is ~5 MB in each), while a one-time step of the
# allocator (RssAnon rose by exactly 1,024 kB once, in one workload, in two CI runs on 15, flat
# before and after) shows in one. A workload fails when both halves grow by 512 kB or more; over all
# workloads, the smaller half of each, added up, must stay under 1 MiB. Also checks that every call
# ran (count = 10M).
#
# Needs the PG* environment of a local server where the ulid extension is installed and a superuser
# (for pg_read_file on /proc). Prints one line per check, exits non-zero on any violation.
# ULID_RSS_CALLS (default 10000000) and ULID_RSS_LIMIT_KB (default 1024) change the size and bound.
# About 20 s on 2 cores (70M calls at ~150 ns each, plus a warm-up).
set -euo pipefail

bindir="$("${PG_CONFIG:-pg_config}" --bindir)" # the major under test (ulid_virtualenv sets PG_CONFIG)
PSQL=("$bindir/psql" -X -v ON_ERROR_STOP=1 -qAt)
CALLS="${ULID_RSS_CALLS:-10000000}"
WARMUP=$((CALLS / 10))
HALF=$((CALLS / 2))
LIMIT_KB="${ULID_RSS_LIMIT_KB:-1024}"

WORK="$(mktemp -d -t ulid-rss.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# shellcheck source=test/lib/checks.sh
source "$(dirname -- "$0")/../lib/checks.sh"

# label | the expression counted per row | the FROM items besides generate_series (g)
# The one-row subqueries with OFFSET 0 keep the constant from being folded at plan time, so the
# cast or I/O function really runs once per row.
WORKLOADS=(
    "gen_ulid()|gen_ulid()|"
    "gen_random_ulid()|gen_random_ulid()|"
    "gen_ulid(timestamptz)|gen_ulid(ts)|, (SELECT '2026-03-02 12:34:56.789+00'::timestamptz AS ts OFFSET 0) c"
    "ulid -> text (id::text)|id::text|, (SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid AS id OFFSET 0) c"
    "text -> ulid (t::ulid)|t::ulid|, (SELECT '01arz3ndektsv4rrffq69g5fav'::text AS t OFFSET 0) c"
    "ulid_out(id)|ulid_out(id)|, (SELECT '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid AS id OFFSET 0) c"
    "ulid_in(cstring)|ulid_in(s)|, (SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::cstring AS s OFFSET 0) c"
)

# The backend's RssAnon in kB, read by the backend itself.
RSS="(regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'RssAnon:\\s+(\\d+) kB'))[1]::bigint"

# One psql session = one backend for everything below.
script="$WORK/rss.sql"
{
    echo "SET client_min_messages = warning;"
    echo "CREATE EXTENSION IF NOT EXISTS ulid;"
    echo "SELECT 'backend|' || pg_backend_pid() || '|' || $RSS || '|' || current_setting('jit') || '|' || pg_jit_available();"
    # Warm-up: one-time allocations (catalog caches, the read-ahead pool, plans) and code pages
    # touched for the first time, every workload twice: as it will run (interpreted; a 10M-row
    # query can cost enough for JIT on other settings) and JIT-compiled, which loads the JIT
    # provider (libLLVM, some 50 MB of mapped code) and the extension's bitcode once.
    for jit in off on; do
        if [[ $jit == on ]]; then
            echo "SET jit_above_cost = 0; SET jit_inline_above_cost = 0; SET jit_optimize_above_cost = 0;"
        fi
        for w in "${WORKLOADS[@]}"; do
            IFS='|' read -r _ expr from <<<"$w"
            echo "SELECT count($expr) FROM generate_series(1, $WARMUP) g $from \\g /dev/null"
        done
    done
    echo "RESET jit_above_cost; RESET jit_inline_above_cost; RESET jit_optimize_above_cost;"
    # ... and one query of the full size without any ulid call: what the executor itself keeps
    # after a first 10M-row generate_series (its tuplestore spills to a temporary file).
    echo "SELECT count(*) FROM generate_series(1, $CALLS) g \\g /dev/null"
    echo "SELECT 'warm|' || $RSS;"
    i=0
    for w in "${WORKLOADS[@]}"; do
        IFS='|' read -r _ expr from <<<"$w"
        echo "SELECT $RSS AS r0, clock_timestamp() AS t0 \\gset"
        echo "SELECT count($expr) AS n1 FROM generate_series(1, $HALF) g $from \\gset"
        echo "SELECT $RSS AS r1 \\gset"
        echo "SELECT count($expr) AS n2 FROM generate_series(1, $((CALLS - HALF))) g $from \\gset"
        echo "SELECT 'run|$i|' || :r0 || '|' || :r1 || '|' || $RSS || '|' || (:n1 + :n2) || '|'"
        echo "       || round(extract(epoch FROM clock_timestamp() - :'t0')::numeric, 2);"
        i=$((i + 1))
    done
    echo "SELECT 'end|' || $RSS;"
} >"$script"

echo "# database ${PGDATABASE:-?} on ${PGHOST:-?}:${PGPORT:-?}; $CALLS calls per workload after a warm-up of $WARMUP; bound: growth < $LIMIT_KB kB"
out="$WORK/rss.out"
rc=0
"${PSQL[@]}" -f "$script" >"$out" 2>&1 || rc=$?
if ((rc != 0)); then
    sed 's/^/#   psql: /' "$out"
    bad "the measuring session failed (psql exit status $rc)"
    echo
    echo "# $CHECKS checks, $VIOLATIONS failed"
    exit 1
fi

IFS='|' read -r _ pid rss_start jit jit_available < <(grep '^backend|' "$out")
IFS='|' read -r _ rss_warm < <(grep '^warm|' "$out")
IFS='|' read -r _ rss_end < <(grep '^end|' "$out")
echo "# backend pid $pid (jit = $jit, JIT available: $jit_available): RssAnon $rss_start kB at start, $rss_warm kB after the warm-up, $rss_end kB at the end"

i=0
smaller_halves=0
for w in "${WORKLOADS[@]}"; do
    IFS='|' read -r label _ <<<"$w"
    line="$(grep "^run|$i|" "$out" || true)"
    i=$((i + 1))
    if [[ -z $line ]]; then
        bad "$label: no measurement"
        continue
    fi
    IFS='|' read -r _ _ r0 r1 r2 n secs <<<"$line"
    if [[ $n != "$CALLS" ]]; then
        bad "$label: $n calls counted (expected $CALLS)"
        continue
    fi
    g1=$((r1 - r0))
    g2=$((r2 - r1))
    smaller_halves=$((smaller_halves + (g1 < g2 ? g1 : g2)))
    ns=$(awk -v s="$secs" -v n="$n" 'BEGIN { printf "%.0f", s * 1e9 / n }')
    msg="$label: RssAnon $r0 kB -> $r1 kB -> $r2 kB ($g1 kB, then $g2 kB) over two halves of $n calls in $secs s (~$ns ns per row)"
    if ((g1 < LIMIT_KB / 2 || g2 < LIMIT_KB / 2)); then ok "$msg"; else bad "$msg: grew by $((LIMIT_KB / 2)) kB or more in both halves"; fi
done
msg="all workloads, the smaller half of each added up: $smaller_halves kB (RssAnon $rss_warm kB after the warm-up, $rss_end kB at the end, over $((CALLS * ${#WORKLOADS[@]})) calls)"
if ((smaller_halves < LIMIT_KB)); then ok "$msg"; else bad "$msg: grew by $LIMIT_KB kB or more"; fi

echo
checks_summary
