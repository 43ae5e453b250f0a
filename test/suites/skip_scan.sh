#!/usr/bin/env bash
# Skip scan (PostgreSQL 18+): an index led by a ulid column with few distinct values answers a query
# that has no condition on that column, stepping from one ulid value to the next with the b-tree
# skip support function of ulid_ops (support function 6, ulid_skipsupport).
#
# Two pairs of tables, each pair with the same 200,000 rows (10 ulid "tenants" x n = 1..20,000)
# and one index on (tenant, n): under ulid_ops, and under ulid_noskip_ops, an operator class made
# here with the same operators and functions but no skip support function. "adjacent" tenants are 10
# consecutive ulid values (as a burst of gen_ulid() in one millisecond makes), "scattered" ones 10
# independent random values. For `WHERE n = 777` and `WHERE n BETWEEN 100 AND 149`, EXPLAIN
# (ANALYZE, BUFFERS) must show an index (only) scan of the index with `Index Searches` above 1 (a
# skip scan, not one pass over the whole index; PostgreSQL 18 skips also without skip support, by
# probing for the next key), rows equal to a sequential scan's, and: adjacent: with skip support at
# most tenants + 2 index searches, and fewer index searches and fewer buffers than without (the
# increment lands on the next tenant); scattered: no more index searches than without (the
# increment never lands on a value, so each step costs a probe either way). Counts of the planner
# and the index, not times. The numbers seen are printed (# lines). On majors before 18: exit 77
# (skipped, with the reason): no skip scan, and ulid_ops has no support function 6 there.
#
# Needs the PG* environment of a server with the extension installed and a superuser. About 5 s.
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
bindir="$("${PG_CONFIG:-pg_config}" --bindir)"
q() { "$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -f - <<<"$1"; } # (a script: VACUUM runs outside a transaction)

server="$(q "SHOW server_version_num")"
if ((server < 180000)); then
    echo "SKIPPED: skip scan and b-tree skip support exist from PostgreSQL 18 (this server: $(q 'SHOW server_version'))"
    exit 77
fi

q "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS ulid; DROP SCHEMA IF EXISTS skip CASCADE; CREATE SCHEMA skip" >/dev/null
ext="$(q "SELECT quote_ident(extnamespace::regnamespace::text) FROM pg_extension WHERE extname = 'ulid'")"
note "$(q 'SELECT version()'); ulid in schema $ext"
support="$(q "SELECT p.amproc::regproc FROM pg_amproc p JOIN pg_opclass c ON c.opcfamily = p.amprocfamily
              JOIN pg_am a ON a.oid = c.opcmethod WHERE c.opcname = 'ulid_ops' AND a.amname = 'btree' AND p.amprocnum = 6
              AND p.amproclefttype = 'ulid'::regtype")"
expect_str "ulid_ops (btree) has support function 6" "$support" "ulid_skipsupport"

q "SET search_path = skip, $ext;
CREATE OPERATOR CLASS skip.ulid_noskip_ops FOR TYPE ulid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 ulid_cmp(ulid, ulid), FUNCTION 2 ulid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);" >/dev/null
expect_str "the operator class made here has no support function 6" \
    "$(q "SELECT count(*) FROM pg_amproc p JOIN pg_opclass c ON c.opcfamily = p.amprocfamily
          WHERE c.opcname = 'ulid_noskip_ops' AND p.amprocnum = 6")" "0"

# load SHAPE TENANTS_SQL: tables SHAPE_with (ulid_ops) and SHAPE_without (ulid_noskip_ops), same rows
load() {
    q "SET search_path = skip, $ext;
    CREATE TABLE skip.$1_with (tenant ulid NOT NULL, n int NOT NULL);
    INSERT INTO skip.$1_with SELECT t.id, g FROM ($2) t(id), generate_series(1, 20000) g ORDER BY random();
    CREATE TABLE skip.$1_without AS SELECT * FROM skip.$1_with;
    CREATE INDEX $1_with_idx ON skip.$1_with (tenant, n);
    CREATE INDEX $1_without_idx ON skip.$1_without (tenant skip.ulid_noskip_ops, n);
    VACUUM (ANALYZE) skip.$1_with, skip.$1_without;" >/dev/null
    ok "$1: two tables of $(q "SELECT count(*) FROM skip.$1_with") rows, $(q "SELECT count(DISTINCT tenant) FROM skip.$1_with") tenants, indexes of $(q "SELECT pg_relation_size('skip.$1_with_idx') / 8192") pages"
}
# adjacent: 10 consecutive values (one random ulid with its last byte 0..9; e.g. a burst of
# gen_ulid() calls in one millisecond): skip support steps straight from one to the next.
load adjacent "SELECT overlay(r.id::bytea PLACING decode(lpad(to_hex(k), 2, '0'), 'hex') FROM 16 FOR 1)::ulid
               FROM (SELECT gen_random_ulid() AS id) r, generate_series(0, 9) k"
# scattered: 10 independent random ulids: the next possible value is never there, so every step
# costs a descent either way.
load scattered "SELECT gen_random_ulid() FROM generate_series(1, 10)"

SETTINGS="SET search_path = skip, $ext; SET enable_seqscan = off; SET enable_bitmapscan = off; SET max_parallel_workers_per_gather = 0;"
# searches PLAN / buffers PLAN: the numbers of the scan node
searches() { sed -nE 's/^ *Index Searches: ([0-9]+).*/\1/p' <<<"$1" | head -n 1; }
buffers() {
    local line hit read
    line="$(grep -m 1 -E '^ *Buffers: shared' <<<"$1" || true)"
    hit="$(sed -nE 's/.*hit=([0-9]+).*/\1/p' <<<"$line")"
    read="$(sed -nE 's/.*read=([0-9]+).*/\1/p' <<<"$line")"
    echo $((${hit:-0} + ${read:-0}))
}
declare -A S=() B=()
for shape in adjacent scattered; do
    for cond in "n = 777" "n BETWEEN 100 AND 149"; do
        echo
        echo "# $shape tenants, WHERE $cond (no condition on tenant)"
        want="$(q "SET search_path = skip, $ext; SELECT count(*) || ',' || sum(n) FROM skip.${shape}_with WHERE $cond")"
        for t in "${shape}_with" "${shape}_without"; do
            q "$SETTINGS SELECT count(*) FROM skip.$t WHERE $cond" >/dev/null # warm: all hits below
            plan="$(q "$SETTINGS EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*), sum(n) FROM skip.$t WHERE $cond")"
            printf '%s\n' "$plan" | grep -E 'Scan|Searches|Buffers' | head -n 3 | sed 's/^/#     /'
            expect_match "$t: an index scan of ${t}_idx" "$plan" "Index (Only )?Scan using ${t}_idx"
            S[$t]="$(searches "$plan")"
            B[$t]="$(buffers "$plan")"
            expect "$t: index searches (more than 1: a skip scan, not one pass over the whole index)" "${S[$t]:-0}" -gt 1
            expect_str "$t: rows as a sequential scan's ($want)" \
                "$(q "SET search_path = skip, $ext; SET enable_indexscan = off; SET enable_indexonlyscan = off;
                      SELECT count(*) || ',' || sum(n) FROM skip.$t WHERE $cond")" "$want"
        done
        w="${shape}_with" wo="${shape}_without"
        if [[ $shape == adjacent ]]; then
            expect "$shape: with skip support, about one index search per tenant (at most tenants + 2)" "${S[$w]:-999}" -le 12
            expect "$shape: without skip support, more index searches than with (${S[$w]})" "${S[$wo]:-0}" -gt "${S[$w]:-999}"
            expect "$shape: without skip support, more buffers than with (${B[$w]})" "${B[$wo]:-0}" -gt "${B[$w]:-999}"
        else
            expect "$shape: with skip support, no more index searches than without (${S[$wo]})" "${S[$w]:-999}" -le "${S[$wo]:-0}"
        fi
        note "$shape, WHERE $cond: index searches ${S[$w]} with skip support vs ${S[$wo]} without; buffers ${B[$w]} vs ${B[$wo]}"
    done
done

q "SET client_min_messages = warning; DROP SCHEMA skip CASCADE" >/dev/null
checks_summary
