#!/usr/bin/env bash
# Citus: a coordinator and two workers of its own on loopback (test/lib/cluster.sh), running the
# recipes test/suites/recipes/citus_*.sql verbatim (docs/scaling-out.md, "Citus", quotes them). Runs when Citus
# is installed for the server under test; otherwise prints SKIPPED with the reason and exits 77:
# Citus is in no registry here, and scripts/test builds the release pinned in scripts/citus-version
# (scripts/citus-build) for the majors that file names (17 in CI); on a major that release does not
# support the reason says so. The workers run with TimeZone = 'Asia/Tokyo', the coordinator with
# UTC. Checks:
#   - CREATE EXTENSION ulid on the coordinator creates it on the worker already added; citus_add_node
#     creates it on a worker added later (same version, same schema);
#   - citus_distribute.sql: orders distributed by its ulid key (DEFAULT gen_ulid()), order_lines
#     colocated, shops a reference table; 2,500 orders on both workers, all unique;
#   - a join of orders and order_lines on the key runs per shard, without repartitioning;
#   - a point lookup is routed to one shard, the ulid condition in the worker SQL; a time range
#     (ulid_min/ulid_max, timestamptz::ulid) goes to every shard with the ulid conditions (folded to
#     constants) in the worker SQL, rows equal a local copy's; a now()-based bound is sent as is;
#   - the reference table is identical on every node and joins;
#   - where gen_ulid() runs: one coordinator session's single-row INSERTs, multi-row VALUES, COPY and
#     INSERT ... SELECT from a local source get ids in insertion order (made on the coordinator);
#     INSERT ... SELECT from a distributed table calls gen_ulid() in the worker SQL (unique ids);
#   - UPDATE ... SET receipt = gen_ulid() / gen_random_ulid() is refused; citus_new_receipts.sql
#     (MATERIALIZED CTE) fills every receipt with distinct values;
#   - a uuid-keyed table holding the same bytes puts every row in the shard of the same hash range,
#     but cannot be colocated with the ulid table;
#   - rows per day: date_trunc('day', ulid_to_timestamp(id)) follows the workers' TimeZone (Tokyo
#     midnights), date_trunc(..., 'UTC') and date_bin equal the local copy's UTC days;
#   - partition_by_month.sql's events, distributed on the same ulid key: partitions distributed
#     (also those made later by create_month_partitions), rows in their month, constant bounds
#     pruned to one partition in the worker plan; DETACH ... CONCURRENTLY refused, plain DETACH
#     and DROP of a month remove its shards and keep the other months' rows;
#   - undistribute_table gives back a local table with the same rows.
# Prints one line per check, exits non-zero on any violation (77 when skipped).
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
PG_CONFIG="${PG_CONFIG:-pg_config}"
: "${ULID_PG_BINDIR:=$("$PG_CONFIG" --bindir)}"
export ULID_PG_BINDIR
PGVERSION_TEXT="$("$PG_CONFIG" --version)"
CITUS_CONTROL="$("$PG_CONFIG" --sharedir)/extension/citus.control"
if [[ ! -f $CITUS_CONTROL || ! -f "$("$PG_CONFIG" --pkglibdir)/citus.so" ]]; then
    # version source sha256 supports built-for (scripts/citus-version)
    read -r CITUS_PIN _ _ CITUS_SUPPORTS CITUS_FOR < <(awk '!/^#/ && NF >= 5' scripts/citus-version)
    MAJOR="$("$PG_CONFIG" --version | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')"
    if ((MAJOR < ${CITUS_SUPPORTS%-*} || MAJOR > ${CITUS_SUPPORTS#*-})); then
        echo "SKIPPED: Citus $CITUS_PIN (scripts/citus-version) supports PostgreSQL $CITUS_SUPPORTS, not $MAJOR"
    else
        echo "SKIPPED: Citus is not installed for $PGVERSION_TEXT (no $CITUS_CONTROL): it is in no" \
            "registry here, and scripts/test builds Citus $CITUS_PIN for PostgreSQL $CITUS_FOR only" \
            "(scripts/citus-version; scripts/citus-build MAJOR builds it for another)"
    fi
    exit 77
fi
source test/lib/cluster.sh
source test/lib/checks.sh
suite_isolate_env
suite_exit_on_signals

RECIPES=test/suites/recipes
BACKFILL=2000 # orders over 10 days, one every 7 minutes 12 seconds from 2025-03-01 00:00 UTC
LIVE=500      # orders with DEFAULT gen_ulid()

# q NODE SQL: one query, unaligned tuples-only output
q() { cluster_psql "$1" -d postgres -At <<<"$2"; } # (stdin: psql < 15 shows only the last result of -c)
# c SQL: one query on the coordinator
c() { q coord "$1"; }
# per_worker TABLE WHERE: "<rows on worker 1> <rows on worker 2>" from the shard placements
per_worker() {
    local w
    for w in w1 w2; do
        c "SELECT coalesce(sum(result::bigint), 0) FROM run_command_on_placements('$1',
               \$\$SELECT count(*) FROM %s WHERE $2\$\$) WHERE nodeport = $(cluster_port "$w")"
    done | tr '\n' ' ' | sed 's/ $//'
}
# both_positive "A B": both numbers > 0
both_positive() { [[ $1 =~ ^[1-9][0-9]*\ [1-9][0-9]*$ ]]; }
# start_node NODE: start it and create the citus extension there
start_node() { cluster_start "$1" && q "$1" "CREATE EXTENSION citus"; }
# detach_and_drop PARTITION: DETACH (not concurrently) from events, then DROP, as two statements
detach_and_drop() { c "ALTER TABLE events DETACH PARTITION $1" && c "DROP TABLE $1"; }
# distributed_events: partition_by_month.sql, months from 2 back, events distributed on id
distributed_events() {
    cluster_psql coord -d postgres -f "$RECIPES/partition_by_month.sql" &&
        c "CALL create_month_partitions('events', 3, since => now() - interval '2 months')" 2>/dev/null &&
        c "SELECT create_distributed_table('events', 'id')"
}
# copy_rows N: COPY N rows (n = 1..N, how = 'copy') into seq_test through the coordinator
copy_rows() { seq 1 "$1" | sed 's/$/\tcopy/' | cluster_psql coord -d postgres -c 'COPY seq_test (n, how) FROM STDIN'; }
# ordered TABLE WHERE: rows whose n is not above the previous row's n in id order (0 = ids in n order)
ordered() { c "SELECT count(*) FROM (SELECT n, lag(n) OVER (ORDER BY id) AS prev FROM $1 WHERE $2) s WHERE n <= prev"; }

echo "# setup: coordinator + w1 + w2 on 127.0.0.1"
for node in coord w1 w2; do
    must "$node: initdb" cluster_init "$node" --no-sync
    cluster_conf "$node" "shared_preload_libraries = 'citus'" "max_prepared_transactions = 100" \
        "citus.node_conninfo = 'sslmode=disable'" "citus.enable_statistics_collection = off"
done
cluster_conf coord "TimeZone = 'UTC'" "citus.shard_count = 8"
cluster_conf w1 "TimeZone = 'Asia/Tokyo'"
cluster_conf w2 "TimeZone = 'Asia/Tokyo'"
for node in coord w1 w2; do
    must "$node: start, CREATE EXTENSION citus" start_node "$node"
done
note "$(c 'SELECT version()')"
note "$(c 'SELECT citus_version()')"

echo
echo "# what CREATE EXTENSION ulid on the coordinator does to the workers"
must "coordinator host set, w1 added" c "SELECT citus_set_coordinator_host('127.0.0.1', $(cluster_port coord));
                                          SELECT citus_add_node('127.0.0.1', $(cluster_port w1))"
expect "w1 before CREATE EXTENSION ulid on the coordinator: ulid installed" \
    "$(q w1 "SELECT count(*) FROM pg_extension WHERE extname = 'ulid'")" -eq 0
must "coordinator: CREATE EXTENSION ulid" c "CREATE EXTENSION ulid"
EXT="$(c "SELECT extversion || ' ' || extnamespace::regnamespace FROM pg_extension WHERE extname = 'ulid'")"
expect_str "w1 (added before): ulid created there too, same version and schema ($EXT)" \
    "$(q w1 "SELECT extversion || ' ' || extnamespace::regnamespace FROM pg_extension WHERE extname = 'ulid'")" "$EXT"
expect "w2 before citus_add_node: ulid installed" "$(q w2 "SELECT count(*) FROM pg_extension WHERE extname = 'ulid'")" -eq 0
must "citus_add_node(w2)" c "SELECT citus_add_node('127.0.0.1', $(cluster_port w2))"
expect_str "w2 (added after): citus_add_node created ulid there, same version and schema" \
    "$(q w2 "SELECT extversion || ' ' || extnamespace::regnamespace FROM pg_extension WHERE extname = 'ulid'")" "$EXT"

echo
echo "# $RECIPES/citus_distribute.sql"
must "citus_distribute.sql runs" cluster_psql coord -d postgres -o /dev/null -f "$RECIPES/citus_distribute.sql"
expect_str "orders hash-distributed on id, order_lines colocated with it, shops a reference table" \
    "$(c "SELECT string_agg(logicalrelid::text || ':' || partmethod::text || ':' ||
                            coalesce(column_to_column_name(logicalrelid, partkey), '-') || ':' ||
                            (colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'orders'::regclass)),
                            ' ' ORDER BY logicalrelid::text)
          FROM pg_dist_partition WHERE logicalrelid::text IN ('orders', 'order_lines', 'shops')")" \
    "order_lines:h:order_id:true orders:h:id:true shops:n:-:false"
must "3 shops, $BACKFILL backfilled orders (gen_ulid(timestamptz)), $LIVE with DEFAULT gen_ulid(), 2 lines each" c "
    INSERT INTO shops (name) VALUES ('north'), ('south'), ('east');
    INSERT INTO orders (id, shop_id, total)
    SELECT gen_ulid(timestamptz '2025-03-01 00:00:00+00' + g * interval '432 seconds'),
           (SELECT id FROM shops ORDER BY name OFFSET g % 3 LIMIT 1), g
    FROM generate_series(0, $BACKFILL - 1) g;
    INSERT INTO orders (shop_id, total)
    SELECT (SELECT id FROM shops ORDER BY name OFFSET g % 3 LIMIT 1), g FROM generate_series(1, $LIVE) g;
    INSERT INTO order_lines SELECT id, k, 'item ' || k FROM orders, generate_series(1, 2) k;
    CREATE TABLE orders_local AS SELECT * FROM orders"
TOTAL=$((BACKFILL + LIVE))
expect "orders seen through the coordinator" "$(c 'SELECT count(*) FROM orders')" -eq "$TOTAL"
expect "distinct ids" "$(c 'SELECT count(DISTINCT id) FROM orders')" -eq "$TOTAL"
pw="$(per_worker orders true)"
if both_positive "$pw" && (($(tr ' ' '+' <<<"$pw") == TOTAL)); then
    ok "orders stored on w1 and w2: $pw"
else
    bad "orders stored on w1 and w2: $pw (expected both > 0, summing to $TOTAL)"
fi
pw="$(per_worker orders "id >= ulid_min(now() - interval '1 hour')")"
if both_positive "$pw"; then
    ok "the $LIVE DEFAULT gen_ulid() orders (same moment) spread over both workers: $pw"
else
    bad "the $LIVE DEFAULT gen_ulid() orders spread over both workers: $pw"
fi
expect "local copy orders_local on the coordinator (not distributed), rows" \
    "$(c "SELECT count(*) FROM orders_local WHERE NOT EXISTS (SELECT FROM pg_dist_partition WHERE logicalrelid = 'orders_local'::regclass)")" -eq "$TOTAL"

echo
echo "# colocated join, point lookups, time ranges"
p="$(c "EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id")"
expect_match "join on the ulid key: one task per shard (Task Count: 8), a join inside each" "$p" "Task Count: 8"
expect_no_match "join on the ulid key: no repartitioning" "$p" "(?i)repartition|MapMergeJob|Map Task"
expect "rows of the colocated join (citus.enable_repartition_joins off)" \
    "$(c "SET citus.enable_repartition_joins = off; SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id")" -eq $((2 * TOTAL))
ID="$(c "SELECT id FROM orders_local ORDER BY total, id LIMIT 1 OFFSET 777")"
p="$(c "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM orders WHERE id = '$ID'")"
expect_contains "point lookup: routed to one shard (Task Count: 1)" "$p" "Task Count: 1"
expect_contains "point lookup: the worker SQL has id OPERATOR(public.=) '$ID'::public.ulid" "$p" \
    "id OPERATOR(public.=) '$ID'::public.ulid"
expect_str "point lookup: the row" "$(c "SELECT total FROM orders WHERE id = '$ID'")" \
    "$(c "SELECT total FROM orders_local WHERE id = '$ID'")"
LO="$(c "SELECT ulid_min('2025-03-03 06:00:00+00')")"
HI="$(c "SELECT ulid_max('2025-03-05 18:00:00+00')")"
RANGE="id >= ulid_min('2025-03-03 06:00:00+00') AND id <= ulid_max('2025-03-05 18:00:00+00')"
p="$(c "EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM orders WHERE $RANGE")"
expect_contains "time range (ulid_min/ulid_max): sent to every shard" "$p" "Task Count: 8"
expect_contains "time range: the worker SQL has the bounds folded to ulid constants" "$p" \
    "((id OPERATOR(public.>=) '$LO'::public.ulid) AND (id OPERATOR(public.<=) '$HI'::public.ulid))"
want="$(c "SELECT count(*) FROM orders_local WHERE $RANGE")"
expect "rows in the time range (local copy)" "$want" -gt 0
expect_str "time range: rows through Citus = the local copy's" "$(c "SELECT count(*) FROM orders WHERE $RANGE")" "$want"
expect_str "time range with timestamptz::ulid casts: the same rows" \
    "$(c "SELECT count(*) FROM orders WHERE id >= '2025-03-03 06:00:00+00'::timestamptz::ulid
                                        AND id < '2025-03-05 18:00:00.001+00'::timestamptz::ulid")" "$want"
p="$(c "EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM orders WHERE id >= ulid_min(now() - interval '1 hour')")"
expect_contains "a now()-based bound is sent to the workers as it is (evaluated there)" "$p" \
    "(id OPERATOR(public.>=) public.ulid_min((now() OPERATOR(pg_catalog.-) '01:00:00'::interval)))"

echo
echo "# the reference table"
expect_str "shops: 3 placements (coordinator and both workers), identical rows" \
    "$(c "SELECT count(*) || ' placements, ' || count(DISTINCT result) || ' distinct' FROM run_command_on_placements('shops',
          \$\$SELECT count(*) || ' ' || md5(string_agg(id::text || name, ',' ORDER BY id)) FROM %s\$\$)")" \
    "3 placements, 1 distinct"
expect "orders joined to shops" "$(c "SELECT count(*) FROM orders o JOIN shops s ON s.id = o.shop_id")" -eq "$TOTAL"

echo
echo "# where gen_ulid() runs"
must "seq_test (id ulid PRIMARY KEY DEFAULT gen_ulid(), n, how) colocated with orders" c "
    CREATE TABLE seq_test (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int NOT NULL, how text NOT NULL);
    SELECT create_distributed_table('seq_test', 'id', colocate_with => 'orders')"
must "one session: 200 single-row INSERTs" \
    cluster_psql coord -d postgres -f <(for i in $(seq 1 200); do echo "INSERT INTO seq_test (n, how) VALUES ($i, 'single');"; done)
must "one multi-row VALUES of 500 rows" \
    c "INSERT INTO seq_test (n, how) VALUES $(seq 1 500 | sed "s/.*/(&, 'values')/" | paste -sd,)"
must "COPY of 1000 rows" copy_rows 1000
must "INSERT ... SELECT of 1000 rows from generate_series (a local source)" \
    c "INSERT INTO seq_test (n, how) SELECT g, 'local' FROM generate_series(1, 1000) g"
for how in single values copy local; do
    expect "$how: rows whose id is not above the previous row's (in n order)" "$(ordered seq_test "how = '$how'")" -eq 0
done
pw="$(per_worker seq_test "how = 'copy'")"
if both_positive "$pw"; then ok "COPY rows on both workers: $pw"; else bad "COPY rows on both workers: $pw"; fi
p="$(c "EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO seq_test (n, how) SELECT g, 'x' FROM generate_series(1, 3) g")"
expect_contains "INSERT ... SELECT from a local source: pulled to the coordinator" "$p" "pull to coordinator"
expect_contains "INSERT ... SELECT from a local source: gen_ulid() in the coordinator's plan" "$p" "Output: gen_ulid(), g"
must "seq_copy (id ulid DEFAULT gen_ulid(), src_id ulid, n) distributed on src_id, colocated" c "
    CREATE TABLE seq_copy (id ulid NOT NULL DEFAULT gen_ulid(), src_id ulid NOT NULL, n int NOT NULL);
    SELECT create_distributed_table('seq_copy', 'src_id', colocate_with => 'orders')"
p="$(c "EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO seq_copy (src_id, n) SELECT id, n FROM seq_test WHERE how = 'local'")"
expect_contains "INSERT ... SELECT from a distributed table: gen_ulid() in the worker SQL" "$p" "SELECT public.gen_ulid() AS id"
must "INSERT ... SELECT of 1000 rows from the distributed seq_test" \
    c "INSERT INTO seq_copy (src_id, n) SELECT id, n FROM seq_test WHERE how = 'local'"
expect "ids made on the workers: distinct (of 1000)" "$(c "SELECT count(DISTINCT id) FROM seq_copy")" -eq 1000
note "ids made on the workers out of n order: $(ordered seq_copy true) of 999 neighbours (shards run in parallel)"

echo
echo "# UPDATE ... SET receipt = gen_ulid() and $RECIPES/citus_new_receipts.sql"
for f in gen_ulid gen_random_ulid; do
    out="$(c "UPDATE orders SET receipt = $f()" 2>&1)"
    expect_contains "UPDATE orders SET receipt = $f() is refused" "$out" \
        "functions used in UPDATE queries on distributed tables must not be VOLATILE"
done
must "citus_new_receipts.sql runs" cluster_psql coord -d postgres -f "$RECIPES/citus_new_receipts.sql"
expect_str "receipts: every order has one, all distinct" \
    "$(c "SELECT count(receipt) || ' ' || count(DISTINCT receipt) FROM orders")" "$TOTAL $TOTAL"

echo
echo "# a uuid table holding the same bytes"
must "uorders (id uuid PRIMARY KEY) distributed, the orders' ids as uuid" c "
    CREATE TABLE uorders (id uuid PRIMARY KEY);
    SELECT create_distributed_table('uorders', 'id');
    INSERT INTO uorders SELECT id::uuid FROM orders_local"
expect "rows whose shard hash range differs between orders and uorders (worker_hash alike)" \
    "$(c "SELECT count(*) FROM orders_local o
          WHERE (SELECT shardminvalue FROM pg_dist_shard WHERE shardid = get_shard_id_for_distribution_column('orders', o.id))
             IS DISTINCT FROM
                (SELECT shardminvalue FROM pg_dist_shard WHERE shardid = get_shard_id_for_distribution_column('uorders', o.id::uuid))")" -eq 0
out="$(c "SELECT update_distributed_table_colocation('uorders', colocate_with => 'orders')" 2>&1)"
expect_contains "uorders cannot be colocated with orders (distribution column types differ)" "$out" \
    "cannot colocate tables orders and uorders"

echo
echo "# rows per day (coordinator TimeZone UTC, workers Asia/Tokyo)"
local_days="$(c "SELECT string_agg(d || '=' || n, ' ' ORDER BY d) FROM (SELECT date_trunc('day', ulid_to_timestamp(id)) AS d, count(*) AS n FROM orders_local GROUP BY 1) s")"
expect_str "date_trunc('day', ulid_to_timestamp(id)) on the workers: days start at 15:00 UTC (Tokyo midnight)" \
    "$(c "SELECT string_agg(DISTINCT to_char(d, 'HH24:MI'), ' ') FROM (SELECT date_trunc('day', ulid_to_timestamp(id)) AS d FROM orders GROUP BY 1) s")" "15:00"
expect_str "date_trunc('day', ulid_to_timestamp(id), 'UTC') through Citus = the local copy's UTC days" \
    "$(c "SELECT string_agg(d || '=' || n, ' ' ORDER BY d) FROM (SELECT date_trunc('day', ulid_to_timestamp(id), 'UTC') AS d, count(*) AS n FROM orders GROUP BY 1) s")" \
    "$local_days"
expect_str "date_bin('1 day', ulid_to_timestamp(id), '2000-01-01 00:00:00+00') through Citus = the same" \
    "$(c "SELECT string_agg(d || '=' || n, ' ' ORDER BY d) FROM (SELECT date_bin('1 day', ulid_to_timestamp(id), '2000-01-01 00:00:00+00') AS d, count(*) AS n FROM orders GROUP BY 1) s")" \
    "$local_days"
# the two queries as docs/scaling-out.md shows them (recipes/citus_days.sql): each gives the local copy's UTC days
local_rows="$(c "SELECT date_trunc('day', ulid_to_timestamp(id), 'UTC') AS day, count(*) FROM orders_local GROUP BY 1 ORDER BY 1")"
expect_str "recipes/citus_days.sql through Citus: both queries give the local copy's UTC days" \
    "$(cluster_psql coord -d postgres -At -f "$RECIPES/citus_days.sql")" "$local_rows"$'\n'"$local_rows"

echo
echo "# distributed and partitioned by month on the same ulid key ($RECIPES/partition_by_month.sql)"
must "partition_by_month.sql, months from 2 back, create_distributed_table('events', 'id')" distributed_events
S1="$(c "SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00'")"
S0="$(c "SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC'), 'YYYY-MM-DD') || ' 00:00:00+00'")"
M1="$(c "SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month', 'YYYYMM')")"
must "1000 rows over the last 2 months (gen_ulid(timestamptz)), 200 with DEFAULT gen_ulid()" c "
    INSERT INTO events (id, kind)
    SELECT gen_ulid(now() - interval '1 second' - interval '59 days' * (g::float8 / 1000)), 'backfill'
    FROM generate_series(0, 999) g;
    INSERT INTO events (kind) SELECT 'live' FROM generate_series(1, 200)"
expect "partitions of events distributed (6: 2 back, this month, 3 ahead)" \
    "$(c "SELECT count(*) FROM pg_dist_partition d JOIN pg_inherits i ON i.inhrelid = d.logicalrelid
          WHERE i.inhparent = 'events'::regclass AND d.partmethod = 'h'")" -eq 6
expect "rows of events_$M1 outside [$S1, $S0)" \
    "$(c "SELECT count(*) FROM events_$M1 WHERE ulid_to_timestamp(id) < '$S1' OR ulid_to_timestamp(id) >= '$S0'")" -eq 0
expect_str "rows of events_$M1 = rows of last month" "$(c "SELECT count(*) FROM events_$M1")" \
    "$(c "SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= '$S1' AND ulid_to_timestamp(id) < '$S0'")"
pw="$(per_worker events "kind = 'live'")"
if both_positive "$pw"; then ok "this month's DEFAULT gen_ulid() rows on both workers: $pw"; else bad "this month's rows on both workers: $pw"; fi
p="$(c "EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id >= ulid_min('$S1') AND id < ulid_min('$S0')")"
expect_match "a constant month range: the worker plan scans only events_$M1's shard" "$p" "on events_${M1}_[0-9]+"
expect "a constant month range: other partitions in the worker plan" \
    "$(grep -E 'on events_[0-9]{6}_' <<<"$p" | grep -vc "events_${M1}_")" -eq 0
must "CALL create_month_partitions('events', 5) on the coordinator" c "CALL create_month_partitions('events', 5)" 2>/dev/null
expect "partitions of events distributed after it (8)" \
    "$(c "SELECT count(*) FROM pg_dist_partition d JOIN pg_inherits i ON i.inhrelid = d.logicalrelid
          WHERE i.inhparent = 'events'::regclass AND d.partmethod = 'h'")" -eq 8

M2="$(c "SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '2 months', 'YYYYMM')")"
before="$(c "SELECT count(*) FROM events WHERE id >= ulid_min('$S1')")"
out="$(c "ALTER TABLE events DETACH PARTITION events_$M2 CONCURRENTLY" 2>&1)"
expect_contains "retention: DETACH PARTITION ... CONCURRENTLY is refused by Citus" "$out" \
    "ALTER TABLE .. DETACH PARTITION .. CONCURRENTLY commands are currently unsupported"
must "retention: DETACH PARTITION events_$M2 (not concurrently), DROP TABLE" \
    detach_and_drop "events_$M2"
expect "partitions of events after it" "$(c "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass")" -eq 7
expect "events_$M2's shards gone from Citus's metadata" \
    "$(c "SELECT count(*) FROM pg_dist_shard WHERE logicalrelid::text = 'events_$M2'")" -eq 0
expect_str "the other months' rows still there" "$(c "SELECT count(*) FROM events")" "$before"

echo
echo "# undistribute_table"
must "undistribute_table('orders')" c "SELECT undistribute_table('orders')" 2>/dev/null
expect "orders in Citus's metadata" "$(c "SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'orders'::regclass")" -eq 0
expect_str "orders (now local): the same ids as the local copy" \
    "$(c "SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM orders")" \
    "$(c "SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM orders_local")"
expect_match "orders (now local): DEFAULT gen_ulid() still makes a new key" \
    "$(c "INSERT INTO orders (shop_id, total) SELECT id, 1 FROM shops LIMIT 1 RETURNING id > (SELECT max(id) FROM orders_local)")" '^t$'

checks_summary
