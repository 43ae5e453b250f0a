#!/usr/bin/env bash
# pg_upgrade across majors: 13 -> 17, 17 -> 18 and 13 -> 18, 14 -> 16 and 16 -> 18, each in copy and
# in --link mode, between the servers scripts/pg-build makes from pinned upstream sources
# (scripts/pg-versions); and 18 -> 19 (copy and --link) between Debian's packages of both in the
# sid chroot (scripts/sid-chroot), in the pass of 19, which runs there.
#
# Runs once per CI run: in the pass of PostgreSQL 18 (the newest target; `scripts/test --pg all`
# runs it last), and exits 77 (skipped, with the reason) in every other pass or when 13, 17 or 18
# is not built; 14 -> 16 -> 18 runs when 14 and 16 are built too (they need ULID_PG_SRC_DIR; CI has
# them), else it says so. It builds this tree against each server and installs it there (a few
# seconds each; the matrix passes have normally installed the same files already). Debian's 15 is
# no source (test/suites/logical_upgrade.sh covers it, by logical replication):
# its server stores a pg_attver option on every column, which upstream pg_restore rejects (any
# table, ulid or not). 18's initdb enables data checksums by default; the 18 clusters are made with
# --no-data-checksums to match the older ones, as pg_upgrade requires.
#
# The old 13 (and 14) cluster, database app (ulid at the default version): accounts (ulid PK DEFAULT gen_ulid()),
# notes (a uuid foreign key to accounts, ON DELETE CASCADE, indexed with uuid_ulid_ops),
# events (ulid PK DEFAULT gen_ulid(), a foreign key to accounts, a hash index on ref, a minmax BRIN
# on id, a btree on account, ulid[] with NULL elements, 20,000 rows), shards (PARTITION BY HASH
# (id), 4 partitions, DEFAULT gen_random_ulid()); database legacy: ulid 0.1.0 (an older release)
# with a table and a BRIN index. Then, for each upgrade (copy and link):
#   - pg_upgrade succeeds; the extension keeps its version;
#   - every table's rows are identical (md5 of COPY ... (FORMAT binary) ordered by key, taken from
#     the old cluster right before the upgrade), in both databases;
#   - amcheck bt_index_check(heapallindexed) passes on every btree index (partitions included);
#   - lookups give the old cluster's answers and use the indexes the plan must use: 200 point
#     lookups through events_pkey, 200 through the hash index, a key range through events_pkey, a
#     time range through the BRIN index, the partitioned table pruned to one partition; every row
#     sits in the partition its hash selects (satisfies_hash_partition);
#   - defaults, the foreign key and the generators work (gen_ulid() above every carried-over id,
#     an orphan refused with 23503), in a transaction rolled back so the rows stay as they were;
#   - before the documented step the new major's extras are missing (minmax-multi/bloom coming from
#     13, skip support coming from 17 or 13); after it (ALTER EXTENSION ulid UPDATE, then UPDATE TO
#     '<default>+refresh' and UPDATE; docs/upgrading.md) both databases are at the
#     default version with exactly the catalog of a fresh install on the new major, minmax-multi and
#     bloom BRIN indexes build and answer (bitmap scans), and on 18 b-tree support function 6 is
#     ulid_skipsupport and the carried-over index on (5 adjacent ulid values, n) now skip-scans
#     with at most 7 index searches (more before the step, without skip support), answering as before.
# The 17 -> 18 upgrades start from the 17 clusters made by 13 -> 17 after their step, the 16 -> 18
# ones from the 16 clusters made by 14 -> 16.
#
# Uses only clusters it starts itself (test/lib/cluster.sh); it prints its time.
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
root="$(cd -- "$here/../.." && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/servers.sh
source "$here/../lib/servers.sh"

MAJORS=()     # the servers used here, oldest first
MISSING_14_16="" # why 14 -> 16 -> 18 does not run, if it does not
this="$("${PG_CONFIG:-pg_config}" --version 2>/dev/null | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')"
if [[ ${ULID_IN_CHROOT:-} == 1 ]]; then
    # the pass of 19, in the sid chroot (scripts/sid-chroot): Debian's 18 and 19 packages there
    [[ $this == 19 ]] || skip_suite "in the sid chroot this suite runs in the pass of 19 (this pass: ${this:-unknown})"
    for major in 18 19; do
        [[ -x /usr/lib/postgresql/$major/bin/pg_upgrade ]] || skip_suite "no postgresql-$major in the chroot (scripts/sid-packages)"
        BIN[$major]="/usr/lib/postgresql/$major/bin"
        MAJORS+=("$major")
    done
else
    for major in 13 14 16 17 18; do
        if ! prefix="$(pinned_server "$major")"; then
            [[ $major == 14 || $major == 16 ]] || skip_suite "$prefix" # version-gates: not a gate (optional servers)
            MISSING_14_16+="${MISSING_14_16:+; }$prefix"
            continue
        fi
        BIN[$major]="$prefix/bin"
        MAJORS+=("$major")
    done
    if [[ $this != 18 && ${ULID_PG_UPGRADE_ANY_PASS:-} != 1 ]]; then
        skip_suite "runs once, in the PostgreSQL 18 pass (this pass: ${this:-unknown}; ULID_PG_UPGRADE_ANY_PASS=1 runs it anyway)"
    fi
fi

suite_isolate_env
suite_exit_on_signals
ULID_PG_BINDIR="${BIN[${MAJORS[-1]}]}" # cluster.sh's default; every call below names its server
# shellcheck source-path=SCRIPTDIR source=../lib/cluster.sh
source "$here/../lib/cluster.sh"
WORK="$(mktemp -d -t ulid-pgupgrade.XXXXXX)"
chmod 755 "$WORK"
cleanup() {
    stop_clusters
    _cluster_cleanup
    rm -rf "$WORK"
}
trap cleanup EXIT
T0=$SECONDS

bin() { echo "${BIN[${MAJOR_OF[$1]}]}"; }
# q CLUSTER DB SQL: rows, unaligned; SQL may hold several statements (each one's rows: read as a
# script, since 13's psql -c prints only the last result)
q() { on "$1" cluster_psql -qAt -d "$2" -f - <<<"$3"; }
new_cluster() { # new_cluster NAME MAJOR: initdb (not started)
    MAJOR_OF[$1]="$2"
    local -a opts=()
    ((${2} >= 18)) && opts=(--no-data-checksums)
    ULID_PG_BINDIR="${BIN[$2]}" cluster_init "$1" "${opts[@]}"
}

# ---------------------------------------------------------------------------------------------
echo "# build and install this tree into ${MAJORS[*]}"
for major in "${MAJORS[@]}"; do
    install_tree "${BIN[$major]}/pg_config" "$WORK"
done
default="$(sed -nE "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'([^']+)'.*/\1/p" "$root/ulid.control")"
STEP="SET client_min_messages = warning; ALTER EXTENSION ulid UPDATE; ALTER EXTENSION ulid UPDATE TO '$default+refresh'; ALTER EXTENSION ulid UPDATE;"
note "default version $default; the step after pg_upgrade: $STEP"

# ---------------------------------------------------------------------------------------------
# the old cluster's data
cat >"$WORK/app.sql" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION ulid;
CREATE TABLE accounts (id ulid PRIMARY KEY DEFAULT gen_ulid(), name text NOT NULL);
CREATE TABLE events (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    account ulid NOT NULL REFERENCES accounts (id),
    ref ulid NOT NULL DEFAULT gen_random_ulid(),
    tags ulid[],
    at timestamptz NOT NULL DEFAULT now(),
    n int NOT NULL
);
CREATE INDEX events_account ON events (account);
-- a uuid column referencing the ulid key (0.3.0), indexed in ulid's family
CREATE TABLE notes (id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                    account uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE);
CREATE INDEX notes_account ON notes (account uuid_ulid_ops);
CREATE INDEX events_ref_hash ON events USING hash (ref);
CREATE INDEX events_id_brin ON events USING brin (id) WITH (pages_per_range = 4);
CREATE TABLE shards (id ulid PRIMARY KEY DEFAULT gen_random_ulid(), v int NOT NULL) PARTITION BY HASH (id);
CREATE TABLE shards_0 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE shards_1 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE shards_2 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE shards_3 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 3);
-- only BRIN indexes: a range or lookup can only be answered by them (or a sequential scan)
CREATE TABLE timeline (id ulid NOT NULL DEFAULT gen_ulid(), ref ulid NOT NULL DEFAULT gen_random_ulid(), n int NOT NULL);
CREATE INDEX timeline_id_brin ON timeline USING brin (id) WITH (pages_per_range = 2);
-- 5 adjacent leading values (one random ulid, last byte 0..4): with skip support a skip scan steps
-- from one straight to the next, without it each step costs a probe for the next key (18)
CREATE TABLE buckets (bucket ulid NOT NULL, n int NOT NULL);
CREATE INDEX buckets_bucket_n ON buckets (bucket, n);

INSERT INTO accounts (name) SELECT 'account ' || g FROM generate_series(1, 100) g;
INSERT INTO events (account, tags, n)
SELECT (SELECT id FROM accounts ORDER BY id OFFSET (g % 100) LIMIT 1),
       CASE WHEN g % 3 = 0 THEN NULL ELSE ARRAY[gen_random_ulid(), NULL, gen_ulid()] END, g
FROM generate_series(1, 20000) g;
INSERT INTO shards (v) SELECT g FROM generate_series(1, 4000) g;
INSERT INTO timeline (n) SELECT g FROM generate_series(1, 20000) g;
INSERT INTO buckets SELECT b.id, g FROM generate_series(1, 2000) g,
    (SELECT overlay(r.id::bytea PLACING decode(lpad(to_hex(k), 2, '0'), 'hex') FROM 16 FOR 1)::ulid
     FROM (SELECT gen_random_ulid() AS id) r, generate_series(0, 4) k) b(id);
ANALYZE;
SQL
cat >"$WORK/legacy.sql" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION ulid VERSION '0.1.0';
CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid NOT NULL DEFAULT gen_random_ulid());
CREATE INDEX items_id_brin ON items USING brin (id);
INSERT INTO items SELECT FROM generate_series(1, 2000);
SQL

# fill_old NAME MAJOR: a cluster of MAJOR with both databases, stopped
fill_old() {
    new_cluster "$1" "$2" && on "$1" cluster_start &&
        on "$1" cluster_psql -d postgres -c 'CREATE DATABASE app' -c 'CREATE DATABASE legacy' >/dev/null &&
        on "$1" cluster_psql -d app -f "$WORK/app.sql" >/dev/null &&
        on "$1" cluster_psql -d legacy -f "$WORK/legacy.sql" >/dev/null &&
        on "$1" cluster_stop
}

# Answers that must not change: "<db> <what> <value>" lines (the same SQL on old and new).
TABLES_app="accounts events shards timeline buckets"
TABLES_legacy="items"
PROBE_app="
WITH s AS MATERIALIZED (SELECT id FROM events WHERE n % 100 = 7)
SELECT 'lookup-pk', count(*), md5(string_agg(e.id::text || e.n, ',' ORDER BY e.id))
  FROM s CROSS JOIN LATERAL (SELECT * FROM events x WHERE x.id = s.id) e;
WITH s AS MATERIALIZED (SELECT ref FROM events WHERE n % 100 = 11)
SELECT 'lookup-hash', count(*), md5(string_agg(e.ref::text || e.n, ',' ORDER BY e.ref))
  FROM s CROSS JOIN LATERAL (SELECT * FROM events x WHERE x.ref = s.ref) e;
SELECT 'range-pk', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM events
 WHERE id >= (SELECT id FROM events WHERE n = 5000) AND id < (SELECT id FROM events WHERE n = 5400);
SELECT 'range-time', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM timeline
 WHERE id >= ulid_min(ulid_to_timestamp((SELECT id FROM timeline WHERE n = 9000)))
   AND id <= ulid_max(ulid_to_timestamp((SELECT id FROM timeline WHERE n = 9100)));
WITH s AS MATERIALIZED (SELECT ref FROM timeline WHERE n % 1000 = 3)
SELECT 'lookup-brin', count(*), md5(string_agg(t.id::text, ',' ORDER BY t.id))
  FROM s JOIN LATERAL (SELECT * FROM timeline x WHERE x.ref = s.ref) t ON true;
SELECT 'shard-lookup', count(*), sum(v) FROM shards WHERE id = (SELECT id FROM shards_2 ORDER BY id LIMIT 1);
SELECT 'per-account', count(DISTINCT account), md5(string_agg(account::text || ':' || c, ',' ORDER BY account))
  FROM (SELECT account, count(*) c FROM events GROUP BY account) a;
SELECT 'skip', count(*), sum(n) FROM buckets WHERE n = 77;"
PROBE_legacy="
SELECT 'items', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM items WHERE id > '00000000000000000000000000';"

# snapshot CLUSTER FILE: binary COPY checksums of every table and the probe answers (plans free)
snapshot() {
    local c="$1" out="$2" db t
    : >"$out"
    for db in app legacy; do
        local tables="TABLES_$db" probe="PROBE_$db"
        for t in ${!tables}; do
            printf '%s %s rows=%s binary-md5=%s\n' "$db" "$t" "$(q "$c" "$db" "SELECT count(*) FROM $t")" \
                "$(on "$c" cluster_psql -d "$db" -c "COPY (SELECT * FROM $t ORDER BY 1, 2) TO STDOUT (FORMAT binary)" | md5sum | cut -d' ' -f1)" >>"$out"
        done
        q "$c" "$db" "${!probe}" | sed "s/^/$db /" >>"$out"
    done
    for db in app legacy; do
        printf '%s extversion %s\n' "$db" "$(q "$c" "$db" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" >>"$out"
    done
    printf 'app shards-placement %s\n' "$(q "$c" app "SELECT string_agg(tableoid::regclass::text || '=' || c, ' ' ORDER BY 1)
        FROM (SELECT tableoid, count(*) c FROM shards GROUP BY tableoid) s")" >>"$out"
}

# The settings that leave the planner only the index access paths we mean.
FORCE="SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_hashjoin = off; SET enable_mergejoin = off;"

# verify NEW OLDMAJOR LABEL SNAPSHOT: the checks on an upgraded, started cluster
verify() {
    local c="$1" from="$2" label="$3" snap="$4" n db plan
    local to="${MAJOR_OF[$1]}"
    echo "# -- checks on $label"
    set +e # a failing query is a failed check below, not the end of the suite
    note "ulid versions carried over: $(grep ' extversion ' "$snap" | cut -d' ' -f1,3 | tr '\n' ' ')"
    snapshot "$c" "$WORK/after.txt"
    if diff "$snap" "$WORK/after.txt" >"$WORK/snap.diff"; then
        ok "$label: rows (binary COPY md5 of $(grep -c 'binary-md5' "$snap") tables), lookups, partition placement and ulid versions identical to the old cluster's"
    else
        bad "$label: differs from the old cluster (< old, > new):"
        sed 's/^/#     /' "$WORK/snap.diff"
    fi
    q "$c" app "$FORCE ${PROBE_app}" | sed "s/^/app /" >"$WORK/forced.txt"
    if diff <(grep -E '^app (lookup-|range-|shard-lookup|per-account|skip)' "$snap") "$WORK/forced.txt" >"$WORK/forced.diff"; then
        ok "$label: the same answers with only index scans allowed"
    else
        bad "$label: index scans answer differently (< old, > index scans):"
        sed 's/^/#     /' "$WORK/forced.diff"
    fi
    # (the sample is a materialized CTE: 18 would remove a self-join of events on its key)
    plan="$(q "$c" app "$FORCE EXPLAIN (COSTS OFF) WITH s AS MATERIALIZED (SELECT id FROM events WHERE n % 100 = 7)
                        SELECT * FROM s CROSS JOIN LATERAL (SELECT * FROM events x WHERE x.id = s.id) e")"
    expect_contains "$label: point lookups use events_pkey" "$plan" "Index Scan using events_pkey"
    plan="$(q "$c" app "$FORCE EXPLAIN (COSTS OFF) WITH s AS MATERIALIZED (SELECT ref FROM events WHERE n % 100 = 11)
                        SELECT * FROM s CROSS JOIN LATERAL (SELECT * FROM events x WHERE x.ref = s.ref) e")"
    expect_contains "$label: hash lookups use events_ref_hash" "$plan" "Index Scan using events_ref_hash"
    plan="$(q "$c" app "SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT count(*) FROM timeline WHERE id >= ulid_min('2000-01-01') AND id <= ulid_max('2000-01-02')")"
    expect_match "$label: a time range uses the BRIN index" "$plan" "Bitmap Index Scan on timeline_id_(brin|multi)"
    plan="$(q "$c" app "EXPLAIN (COSTS OFF) SELECT * FROM shards WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'")"
    expect "$label: a key lookup on shards is pruned to one partition" "$(count_lines "$plan" "shards_")" -eq 1
    n="$(q "$c" app "SELECT count(*) FROM shards s JOIN pg_inherits i ON i.inhrelid = s.tableoid
                     JOIN LATERAL (SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'remainder (\d+)'))[1]::int r
                                   FROM pg_class c WHERE c.oid = s.tableoid) p ON true
                     WHERE NOT satisfies_hash_partition('shards'::regclass, 4, p.r, s.id)")"
    expect "$label: rows outside the partition their hash selects" "$n" -eq 0
    q "$c" app "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS amcheck" >/dev/null
    local idx bad_idx=0 count=0
    for idx in $(q "$c" app "SELECT c.oid::regclass FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                             JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND c.relkind = 'i'
                             AND c.relnamespace = 'public'::regnamespace"); do
        count=$((count + 1))
        q "$c" app "SELECT bt_index_check('$idx'::regclass, true)" >/dev/null 2>"$WORK/amcheck.err" || {
            bad_idx=$((bad_idx + 1))
            note "bt_index_check($idx): $(head -n 1 "$WORK/amcheck.err")"
        }
    done
    expect "$label: btree indexes checked by bt_index_check(heapallindexed) (failures below)" "$count" -ge 8
    expect "$label: bt_index_check failures" "$bad_idx" -eq 0
    # defaults, generators and the foreign key, rolled back
    n="$(q "$c" app "BEGIN;
        INSERT INTO accounts (name) VALUES ('new');
        INSERT INTO events (account, n) SELECT id, -1 FROM accounts WHERE name = 'new';
        INSERT INTO shards (v) VALUES (-1);
        SELECT (SELECT id FROM events WHERE n = -1) > (SELECT max(id) FROM events WHERE n > 0)
           AND (SELECT ulid_to_timestamp(id) FROM events WHERE n = -1) BETWEEN now() - interval '1 minute' AND clock_timestamp()
           AND (SELECT count(*) FROM shards WHERE v = -1) = 1
           AND gen_ulid() > (SELECT id FROM events WHERE n = -1);
        ROLLBACK;")"
    expect_str "$label: DEFAULT gen_ulid() above every carried-over id, gen_random_ulid() default routed to a partition" "$n" "t"
    n="$(on "$c" cluster_psql -d app -v VERBOSITY=verbose -c "INSERT INTO events (account, n) VALUES (gen_ulid(), -2)" 2>&1 || true)"
    expect_match "$label: the foreign key refuses an orphan" "$n" "ERROR:  23503"
    n="$(on "$c" cluster_psql -d app -v VERBOSITY=verbose -c "INSERT INTO notes (account) VALUES (gen_random_uuid())" 2>&1 || true)"
    expect_match "$label: the uuid -> ulid foreign key refuses an orphan" "$n" "ERROR:  23503"
    n="$(q "$c" app "BEGIN; INSERT INTO accounts (name) SELECT 'noted' FROM generate_series(1, 3);
                     INSERT INTO notes (account) SELECT id FROM accounts WHERE name = 'noted';
                     DELETE FROM accounts WHERE name = 'noted';
                     SELECT count(*) FROM notes; ROLLBACK;")"
    expect_str "$label: ... takes uuid values of the ulid keys and cascades the deletes" "$n" "0"
    n="$(q "$c" legacy "BEGIN; CREATE TEMP TABLE top AS SELECT max(id) AS id FROM items;
                        INSERT INTO items DEFAULT VALUES; SELECT count(*) FROM items WHERE id > (SELECT id FROM top); ROLLBACK;")"
    expect_str "$label: legacy: DEFAULT gen_ulid() works, above every carried-over id" "$n" "1"

    # what the new major adds, before and after the step
    local want_multi=0 want_skip=0 searches_before=""
    ((from < 14 && to >= 14)) && want_multi=1
    ((from < 18 && to >= 18)) && want_skip=1
    SKIP_PROBE="SET enable_bitmapscan = off; SET enable_seqscan = off;
        EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*), sum(n) FROM buckets WHERE n = 77"
    if ((want_skip)); then # the index searches of a skip scan over the carried-over index, without skip support
        searches_before="$(q "$c" app "$SKIP_PROBE" | sed -nE 's/^ *Index Searches: ([0-9]+).*/\1/p')"
    fi
    for db in app legacy; do
        n="$(q "$c" "$db" "SELECT count(*) FROM pg_opclass WHERE opcname IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops')")"
        if ((want_multi)); then
            expect "$label: $db before the step: minmax-multi/bloom classes (13 had none)" "$n" -eq 0
        fi
        n="$(q "$c" "$db" "SELECT count(*) FROM pg_proc WHERE proname = 'ulid_skipsupport'")"
        if ((want_skip)); then
            expect "$label: $db before the step: skip support function ($from had none)" "$n" -eq 0
        fi
        q "$c" "$db" "$DESCRIBE_SQL" >"$WORK/pre-$db.txt"
        if q "$c" "$db" "$STEP" >/dev/null 2>"$WORK/step.err"; then
            ok "$label: $db: the step after pg_upgrade ran"
        else
            bad "$label: $db: the step after pg_upgrade: $(head -n 1 "$WORK/step.err")"
        fi
        expect_str "$label: $db at $default after the step" \
            "$(q "$c" "$db" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$default"
    done
    n="$(q "$c" app "SELECT count(*) FILTER (WHERE NOT amvalidate(c.oid)) || '/' || count(*) FROM pg_opclass c
                     JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass AND d.objid = c.oid AND d.deptype = 'e'")"
    expect_match "$label: app: amvalidate() of every operator class of the extension after the step (invalid/all)" "$n" '^0/[0-9]+$'
    q "$c" postgres "CREATE DATABASE fresh" >/dev/null
    q "$c" fresh "CREATE EXTENSION ulid" >/dev/null
    q "$c" fresh "$DESCRIBE_SQL" >"$WORK/fresh.txt"
    for db in app legacy; do
        q "$c" "$db" "$DESCRIBE_SQL" >"$WORK/desc-$db.txt"
        if diff "$WORK/fresh.txt" "$WORK/desc-$db.txt" >"$WORK/desc.diff"; then
            ok "$label: $db: the extension's catalog is a fresh $to install's ($(grep -c '^amproc' "$WORK/fresh.txt") amproc entries)"
        else
            bad "$label: $db: catalog differs from a fresh install on $to (< fresh, > upgraded):"
            head -n 20 "$WORK/desc.diff" | sed 's/^/#     /'
        fi
    done
    if ((from >= 18)); then # 19 adds nothing the extension uses: the step changes no catalog row
        if diff "$WORK/fresh.txt" "$WORK/pre-app.txt" >"$WORK/desc.diff"; then
            ok "$label: app: before the step the catalog was already a fresh $to install's (the refresh round trip is a no-op)"
        else
            bad "$label: app: the step changed the catalog from $from (< fresh, > before the step):"
            head -n 20 "$WORK/desc.diff" | sed 's/^/#     /'
        fi
    fi
    q "$c" postgres "DROP DATABASE fresh" >/dev/null
    if ((to >= 14)); then # (kept: a 17 cluster carries them on to 18)
        q "$c" app "CREATE INDEX IF NOT EXISTS timeline_ref_bloom ON timeline USING brin (ref ulid_bloom_ops);
                    CREATE INDEX IF NOT EXISTS timeline_id_multi ON timeline USING brin (id ulid_minmax_multi_ops)" \
            >/dev/null 2>"$WORK/brin.err" || bad "$label: bloom/minmax-multi indexes: $(head -n 1 "$WORK/brin.err")"
        plan="$(q "$c" app "SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM timeline WHERE ref = '01ARZ3NDEKTSV4RRFFQ69G5FAV'")"
        expect_contains "$label: a ref lookup uses the bloom index" "$plan" "Bitmap Index Scan on timeline_ref_bloom"
        n="$(q "$c" app "SET enable_seqscan = off; ${PROBE_app}" | grep -E '^(lookup-brin|range-time)' | sed 's/^/app /' || true)"
        expect_str "$label: ... BRIN lookups and ranges with minmax-multi and bloom answer as before" "$n" \
            "$(grep -E '^app (lookup-brin|range-time)' "$snap")"
        n="$(q "$c" app "BEGIN; DROP INDEX timeline_id_brin; SET LOCAL enable_seqscan = off;
                         EXPLAIN (COSTS OFF) SELECT * FROM timeline WHERE id < ulid_min('2000-01-01'); ROLLBACK;")"
        expect_contains "$label: ... a range uses the minmax-multi index" "$n" "Bitmap Index Scan on timeline_id_multi"
    fi
    if ((to >= 18)); then
        n="$(q "$c" app "SELECT amproc::regproc FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
                         JOIN pg_am a ON a.oid = f.opfmethod WHERE a.amname = 'btree' AND f.opfname = 'ulid_ops' AND p.amprocnum = 6
                         AND p.amproclefttype = 'ulid'::regtype")"
        expect_str "$label: btree support function 6 of ulid_ops for ulid" "$n" "ulid_skipsupport"
        plan="$(q "$c" app "$SKIP_PROBE")"
        expect_match "$label: a query on n alone scans buckets_bucket_n (skip scan)" "$plan" "Index (Only )?Scan using buckets_bucket_n"
        n="$(sed -nE 's/^ *Index Searches: ([0-9]+).*/\1/p' <<<"$plan")"
        expect "$label: ... the carried-over index now uses skip support: index searches (5 adjacent values + 2 at most)" "${n:-99}" -le 7
        if [[ -n $searches_before ]]; then
            expect "$label: ... before the step, without skip support, it took more ($n now)" "$searches_before" -gt "${n:-99}"
        fi
        n="$(q "$c" app "SET enable_bitmapscan = off; SET enable_seqscan = off; SELECT 'skip', count(*), sum(n) FROM buckets WHERE n = 77" | sed 's/^/app /')"
        expect_str "$label: ... and answers as on the old cluster" "$n" "$(grep '^app skip' "$snap")"
    fi
    set -e
}

DESCRIBE_SQL="$(cat "$here/../lib/ulid_describe.sql")"

# upgrade OLD NEW MODE: pg_upgrade the stopped cluster OLD into a fresh cluster NEW, then start NEW
upgrade() {
    local old="$1" new="$2" mode="$3" rc=0 t0=$SECONDS
    local oldbin newbin
    oldbin="$(bin "$old")"
    newbin="$(bin "$new")"
    mkdir -p "$WORK/run-$new"
    chown postgres: "$WORK/run-$new" 2>/dev/null || true
    local -a how=() # copy is pg_upgrade's default (--copy is spelled out only from 16)
    [[ $mode == link ]] && how=(--link)
    (cd "$WORK/run-$new" && _cluster_as_owner "$newbin/pg_upgrade" "${how[@]}" \
        -b "$oldbin" -B "$newbin" -d "$(cluster_dir "$old")" -D "$(cluster_dir "$new")" \
        -p "$(cluster_free_port)" -P "$(cluster_free_port)" -s "$WORK/run-$new" --no-sync \
        >"$WORK/run-$new/pg_upgrade.out" 2>&1) || rc=$?
    if ((rc == 0)); then
        ok "pg_upgrade --$mode ${MAJOR_OF[$old]} -> ${MAJOR_OF[$new]} ($((SECONDS - t0)) s)"
    else
        bad "pg_upgrade --$mode ${MAJOR_OF[$old]} -> ${MAJOR_OF[$new]} (exit $rc):"
        tail -n 25 "$WORK/run-$new/pg_upgrade.out" | sed 's/^/#     /'
        find "$(cluster_dir "$new")" -path '*pg_upgrade_output.d*' -name '*.log' -exec tail -n 15 {} + 2>/dev/null | sed 's/^/#     /'
        return 1
    fi
    on "$new" cluster_start
}

# one_upgrade OLD NEW MODE: snapshot OLD (started), stop it, upgrade, verify
one_upgrade() {
    local old="$1" new="$2" mode="$3"
    local from="${MAJOR_OF[$old]}"
    echo
    echo "# ==== ${MAJOR_OF[$old]} -> ${MAJOR_OF[$new]}, --$mode ===="
    on "$old" cluster_start
    snapshot "$old" "$WORK/snap-$new.txt"
    on "$old" cluster_stop
    upgrade "$old" "$new" "$mode" || return 0
    verify "$new" "$from" "${MAJOR_OF[$old]}->${MAJOR_OF[$new]} $mode" "$WORK/snap-$new.txt"
    on "$new" cluster_stop
}

if [[ ${ULID_IN_CHROOT:-} == 1 ]]; then
    echo
    echo "# old cluster (18, Debian's package in the sid chroot): database app (ulid $default) and legacy (ulid 0.1.0)"
    must "18 cluster filled" fill_old old18a 18
    new_cluster new19c 19
    one_upgrade old18a new19c copy
    new_cluster new19l 19
    one_upgrade old18a new19l link # (the last use of old18a)
    note "pg_upgrade suite took $((SECONDS - T0)) s"
    checks_summary
    exit
fi

echo
echo "# old clusters (13): database app (ulid $default) and legacy (ulid 0.1.0)"
must "13 cluster filled" fill_old old13a 13
must "second 13 cluster filled (for the --link upgrade to 18)" fill_old old13b 13
on old13a cluster_start
note "13: app has $(q old13a app "SELECT count(*) FROM events") events, $(q old13a app "SELECT count(*) FROM shards") shard rows; $(q old13a app 'SELECT version()')"
on old13a cluster_stop

new_cluster new17c 17
one_upgrade old13a new17c copy
new_cluster new18c 18
one_upgrade old13a new18c copy # (copy mode leaves the old cluster as it was)
new_cluster new17l 17
one_upgrade old13a new17l link # (the last use of old13a: --link gives its files to new17l)
new_cluster new18l 18
one_upgrade old13b new18l link
new_cluster new18cc 18
one_upgrade new17c new18cc copy
new_cluster new18ll 18
one_upgrade new17l new18ll link

echo
if [[ -n $MISSING_14_16 ]]; then
    note "14 -> 16 -> 18 not run: $MISSING_14_16"
else
    echo "# old cluster (14): database app (ulid $default) and legacy (ulid 0.1.0)"
    must "14 cluster filled" fill_old old14a 14
    new_cluster new16c 16
    one_upgrade old14a new16c copy
    new_cluster new16l 16
    one_upgrade old14a new16l link # (the last use of old14a)
    new_cluster new18c16 18
    one_upgrade new16c new18c16 copy
    new_cluster new18l16 18
    one_upgrade new16l new18l16 link
fi

note "pg_upgrade suite took $((SECONDS - T0)) s"
checks_summary
