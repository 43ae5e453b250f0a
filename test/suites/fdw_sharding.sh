#!/usr/bin/env bash
# Sharding with postgres_fdw: a coordinator and two shard servers of its own (test/lib/cluster.sh).
#
# On the coordinator, `events` is PARTITION BY HASH (id) with 4 partitions that are postgres_fdw
# foreign tables, 2 on each shard; the foreign servers list `extensions 'ulid'`, and the extension is
# in schema public on every node. Checks:
#   - inserts with DEFAULT gen_ulid() on the coordinator (RETURNING into a local copy) and a batched
#     backfill with gen_ulid(timestamptz) land on both shards, each row in the partition a local
#     hash-partitioned table puts it in; the DEFAULT runs on the coordinator (one increasing sequence);
#   - the shards together hold exactly the local copy;
#   - point lookups are pruned to one partition and pushed down (Remote SQL has `id OPERATOR(public.=)
#     '<ulid>'`) and return the right row; time ranges `id >= ts::ulid AND id < ts2::ulid` (and
#     ulid_min/ulid_max bounds) are pushed down to every partition and return the right rows;
#   - a bound computed from now() is pushed down only when wrapped in a scalar subquery;
#   - without `extensions 'ulid'` nothing is pushed down (a local Filter), results unchanged;
#   - aggregates by day of ulid_to_timestamp(id) (date_bin) are correct across shards; on one foreign
#     table the date_bin form is pushed down, the AT TIME ZONE form is not; what happens on the hash-
#     partitioned parent is printed; a UNION ALL of per-partition aggregates runs on the shards;
#   - with the extension in another schema on a shard, a pushed-down condition fails there.
# PostgreSQL 13 lacks date_bin() (checked) and postgres_fdw's batch_size/async_capable: days are
# counted with date_part('day', ulid_to_timestamp(id) - '2000-01-01') there, and its postgres_fdw
# pushes no aggregate of them down (printed, not checked). postgres_fdw before 15 (13 and 14) casts
# every ulid constant in Remote SQL ('...'::public.ulid), which 15 dropped for a constant compared
# with a column of its type.
# Prints one line per check, exits non-zero on any violation.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/cluster.sh
source test/lib/checks.sh
suite_isolate_env
suite_exit_on_signals

LIVE_ROWS=3000      # inserted with DEFAULT gen_ulid() on the coordinator
BACKFILL_ROWS=20000 # gen_ulid(timestamptz), one every 37 s from 2025-03-01: about 8.6 days

# q NODE SQL: one query, unaligned tuples-only output
q() { cluster_psql "$1" -d postgres -At <<<"$2"; }
# qf NODE: SQL script on standard input
qf() { cluster_psql "$1" -d postgres; }

echo "# setup: coordinator + shard1 + shard2 on 127.0.0.1"
for node in coord shard1 shard2; do
    must "start server $node" cluster_up "$node" --no-sync
done
note "$(q coord 'SELECT version()')"
PGNUM="$(q coord 'SHOW server_version_num')"
# batch_size and async_capable are postgres_fdw options from PostgreSQL 14 on
FDW_OPTS="extensions 'ulid', batch_size '1000', async_capable 'true'"
# fdw_consts: postgres_fdw before 15 casts every ulid constant in Remote SQL ('...'::public.ulid);
# without that cast the plans read the same on every major (a filter on EXPLAIN's output)
fdw_consts() { if ((PGNUM < 150000)); then sed "s/'::public\.ulid)/')/g"; else cat; fi; }
if ((PGNUM < 140000)); then
    FDW_OPTS="extensions 'ulid'"
    note "postgres_fdw before 14 has no batch_size or async_capable: servers with extensions 'ulid' only"
fi

# The recipes of docs/scaling-out.md (test/suites/recipes/fdw_*.sql), with this run's hosts and ports.
RECIPES=test/suites/recipes
# the shard side: the extension in schema public (as on every node) and plain tables, one per
# partition, with their own primary keys; shard2 gets the same with events_p1 and events_p3
must "shard1: recipes/fdw_shard.sql (extension in public, tables events_p0, events_p2)" qf shard1 <"$RECIPES/fdw_shard.sql"
must "shard2: recipes/fdw_shard.sql with events_p1, events_p3" \
    qf shard2 < <(sed 's/events_p0/events_p1/; s/events_p2/events_p3/' "$RECIPES/fdw_shard.sql")

P1="$(cluster_port shard1)"
P2="$(cluster_port shard2)"
# The coordinator side: the recipe with this run's ports (and before 14 without batch_size/async_capable).
coordinator_recipe() {
    sed -e "s/host 'shard1.example', port '5432'/host '127.0.0.1', port '$P1'/" \
        -e "s/host 'shard2.example', port '5432'/host '127.0.0.1', port '$P2'/" \
        -e "s/extensions 'ulid', batch_size '1000', async_capable 'true'/$FDW_OPTS/" "$RECIPES/fdw_coordinator.sql"
}
expect "recipes/fdw_coordinator.sql: lines changed for this run (hosts, ports, options)" \
    "$(diff <(coordinator_recipe) "$RECIPES/fdw_coordinator.sql" | grep -c '^>')" -le 4
must "coordinator: recipes/fdw_coordinator.sql (extension in public, servers with extensions 'ulid', user mappings, events PARTITION BY HASH (id) over 4 foreign tables)" \
    qf coord < <(coordinator_recipe)
must "coordinator: the local copy every result is compared with, hash-partitioned the same way" qf coord <<SQL
CREATE TABLE events_local (id ulid PRIMARY KEY, n int NOT NULL, payload text NOT NULL)
    PARTITION BY HASH (id);
CREATE TABLE events_local_p0 PARTITION OF events_local FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE events_local_p1 PARTITION OF events_local FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE events_local_p2 PARTITION OF events_local FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE events_local_p3 PARTITION OF events_local FOR VALUES WITH (MODULUS 4, REMAINDER 3);
SQL

echo
echo "# inserts on the coordinator"
must "INSERT $LIVE_ROWS rows with DEFAULT gen_ulid() through the coordinator (RETURNING into the local copy)" \
    q coord "WITH ins AS (
                 INSERT INTO events (n, payload)
                 SELECT g, 'live ' || g FROM generate_series(1, $LIVE_ROWS) g
                 RETURNING id, n, payload)
             INSERT INTO events_local SELECT * FROM ins"
must "INSERT $BACKFILL_ROWS backfilled rows (gen_ulid(timestamptz)) through the coordinator (batched)" \
    q coord "INSERT INTO events_local
             SELECT gen_ulid(timestamptz '2025-03-01 00:00:00+00' + g * interval '37 seconds'),
                    $LIVE_ROWS + g, 'backfill ' || g
             FROM generate_series(1, $BACKFILL_ROWS) g;
             INSERT INTO events SELECT * FROM events_local WHERE n > $LIVE_ROWS"

TOTAL=$((LIVE_ROWS + BACKFILL_ROWS))
expect "rows seen through the coordinator" "$(q coord 'SELECT count(*) FROM events')" -eq "$TOTAL"
s1="$(q shard1 'SELECT (SELECT count(*) FROM events_p0) + (SELECT count(*) FROM events_p2)')"
s2="$(q shard2 'SELECT (SELECT count(*) FROM events_p1) + (SELECT count(*) FROM events_p3)')"
expect "rows stored on shard1 (events_p0 + events_p2)" "$s1" -gt 0
expect "rows stored on shard2 (events_p1 + events_p3)" "$s2" -gt 0
expect "shard1 + shard2 rows" "$((${s1:-0} + ${s2:-0}))" -eq "$TOTAL"
expect "DEFAULT gen_ulid() rows on shard1" \
    "$(q shard1 "SELECT count(*) FROM (TABLE events_p0 UNION ALL TABLE events_p2) s WHERE n <= $LIVE_ROWS")" -gt 0
expect "DEFAULT gen_ulid() rows on shard2" \
    "$(q shard2 "SELECT count(*) FROM (TABLE events_p1 UNION ALL TABLE events_p3) s WHERE n <= $LIVE_ROWS")" -gt 0

# Every shard partition holds exactly the rows the local hash partition of the same remainder holds
# (read straight from the shard, not through postgres_fdw).
digest="SELECT count(*) || ' ' || md5(coalesce(string_agg(id::text || ':' || n || ':' || payload, ',' ORDER BY id), ''))"
for k in 0 1 2 3; do
    shard=shard$((k % 2 + 1))
    remote="$(q "$shard" "$digest FROM events_p$k")"
    local_="$(q coord "$digest FROM events_local_p$k")"
    if [[ -n $remote && $remote == "$local_" ]]; then
        ok "$shard.events_p$k holds exactly the rows of local hash partition $k (${remote%% *} rows)"
    else
        bad "$shard.events_p$k differs from local hash partition $k: [$remote] vs [$local_]"
    fi
done
expect "rows differing between events (all shards) and the local copy, both ways" \
    "$(q coord 'SELECT count(*) FROM ((TABLE events EXCEPT ALL TABLE events_local)
                                     UNION ALL (TABLE events_local EXCEPT ALL TABLE events)) d')" -eq 0
expect "DEFAULT gen_ulid() ids not increasing in insertion order across shards (one coordinator sequence)" \
    "$(q coord "SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM events
                                       WHERE n <= $LIVE_ROWS) s WHERE prev >= id")" -eq 0

echo
echo "# the queries docs/scaling-out.md shows (recipes/fdw_point_lookup.sql, fdw_time_range.sql, fdw_days.sql)"
plan="$(qf coord <"$RECIPES/fdw_point_lookup.sql" | fdw_consts)"
expect_contains "fdw_point_lookup.sql: pruned to events_p2" "$plan" " Foreign Scan on public.events_p2 events"
expect "fdw_point_lookup.sql: one foreign scan" "$(count_lines "$plan" 'Foreign Scan')" -eq 1
expect_contains "fdw_point_lookup.sql: the condition in the Remote SQL" "$plan" \
    "Remote SQL: SELECT id, n, payload FROM public.events_p2 WHERE ((id OPERATOR(public.=) '01M8M88E9716VHPXTPQM4TW82Y'))"
plan="$(qf coord <"$RECIPES/fdw_time_range.sql" | fdw_consts)"
expect "fdw_time_range.sql: Remote SQL with both folded bounds, one per partition" \
    "$(count_lines "$plan" "WHERE ((id OPERATOR(public.>=) '01JNCMTT000000000000000000')) AND ((id OPERATOR(public.<) '01JNF77H000000000000000000'))")" -eq 4
expect_contains "fdw_time_range.sql: events_p0's Remote SQL" "$plan" \
    "Remote SQL: SELECT id, n, payload FROM public.events_p0 WHERE ((id OPERATOR(public.>=) '01JNCMTT000000000000000000')) AND ((id OPERATOR(public.<) '01JNF77H000000000000000000'))"
if ((PGNUM >= 140000)); then
    expect "fdw_time_range.sql: Async Foreign Scan on each partition" \
        "$(count_lines "$plan" 'Async Foreign Scan on public.events_p')" -eq 4
    expect "fdw_days.sql: every branch aggregated on its shard" \
        "$(count_lines "$(q coord "EXPLAIN (VERBOSE, COSTS OFF) $(cat "$RECIPES/fdw_days.sql")")" 'Relations: Aggregate on (public.events_p')" -eq 4
    expect_str "fdw_days.sql: rows per day equal the local copy's" "$(cluster_psql coord -d postgres -At <"$RECIPES/fdw_days.sql")" \
        "$(q coord "SELECT date_bin('1 day', ulid_to_timestamp(id), timestamptz '2000-01-01 00:00:00+00'), count(*) FROM events_local GROUP BY 1 ORDER BY 1")"
else
    note "PostgreSQL 13: no async foreign scans, and no date_bin() for fdw_days.sql"
fi

echo
echo "# point lookups"
read -r PID PPART < <(q coord "SELECT id, tableoid::regclass FROM events_local WHERE n = 1234" | tr '|' ' ')
PPART="${PPART#events_local_}"
plan="$(q coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id = '$PID'"| fdw_consts)"
printf '%s\n' "$plan" | sed 's/^/#   /'
expect "point lookup: foreign scans in the plan (pruned to one partition)" "$(count_lines "$plan" 'Foreign Scan')" -eq 1
expect_contains "point lookup: Remote SQL on events_$PPART (where the row lives) has the ulid condition" \
    "$plan" "FROM public.events_$PPART WHERE ((id OPERATOR(public.=) '$PID'))"
expect "point lookups of 200 sampled ids returning the wrong row or none" \
    "$(q coord "DO \$\$
        DECLARE r record; got text; bad int := 0;
        BEGIN
            FOR r IN SELECT id, payload FROM events_local WHERE n % 115 = 0 LOOP
                got := NULL;
                EXECUTE format('SELECT payload FROM events WHERE id = %L', r.id) INTO got;
                IF got IS DISTINCT FROM r.payload THEN bad := bad + 1; END IF;
            END LOOP;
            RAISE NOTICE 'bad=%', bad;
        END \$\$" 2>&1 | sed -n 's/.*bad=//p')" -eq 0
expect "point lookup of an id that is not there" \
    "$(q coord "SELECT count(*) FROM events WHERE id = '00000000000000000000000000'")" -eq 0

echo
echo "# time ranges"
LO="timestamptz '2025-03-03 00:00:00+00'"
HI="timestamptz '2025-03-04 00:00:00+00'"
LO_ULID="$(q coord "SELECT ($LO)::ulid")"
HI_ULID="$(q coord "SELECT ($HI)::ulid")"
plan="$(q coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= $LO::ulid AND id < $HI::ulid"| fdw_consts)"
printf '%s\n' "$plan" | sed 's/^/#   /'
expect "time range: Remote SQL lines with both ulid bounds (one per partition)" \
    "$(count_lines "$plan" "WHERE ((id OPERATOR(public.>=) '$LO_ULID')) AND ((id OPERATOR(public.<) '$HI_ULID'))")" -eq 4
expect "time range: local Filter lines (nothing left to filter on the coordinator)" \
    "$(count_lines "$plan" 'Filter:')" -eq 0
plan="$(q coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events
                 WHERE id BETWEEN ulid_min('2025-03-02 06:00+00') AND ulid_max('2025-03-02 06:29:59.999+00')"| fdw_consts)"
expect "ulid_min/ulid_max bounds: Remote SQL lines with the folded bounds" \
    "$(count_lines "$plan" "WHERE ((id OPERATOR(public.>=) '$(q coord "SELECT ulid_min('2025-03-02 06:00+00')")')) AND ((id OPERATOR(public.<=) '$(q coord "SELECT ulid_max('2025-03-02 06:29:59.999+00')")'))")" -eq 4

# same_rows LABEL WHERE: events (through the shards) and events_local give the same rows
same_rows() {
    local label="$1" where="$2" a b
    a="$(q coord "$digest FROM events WHERE $where")"
    b="$(q coord "$digest FROM events_local WHERE $where")"
    if [[ -n $a && $a == "$b" ]]; then
        ok "$label: same rows as the local copy (${a%% *} rows)"
    else
        bad "$label: shards [$a] vs local copy [$b]"
    fi
}
same_rows "range one day" "id >= $LO::ulid AND id < $HI::ulid"
same_rows "range 30 minutes" "id >= timestamptz '2025-03-02 06:00+00'::ulid AND id < timestamptz '2025-03-02 06:30+00'::ulid"
same_rows "range ulid_min..ulid_max" "id BETWEEN ulid_min('2025-03-02 06:00+00') AND ulid_max('2025-03-02 06:29:59.999+00')"
same_rows "range end of backfill to 2100 (includes the live rows)" \
    "id >= timestamptz '2025-03-09 12:00+00'::ulid AND id < timestamptz '2100-01-01+00'::ulid"
same_rows "range before any row" "id >= timestamptz '2000-01-01+00'::ulid AND id < timestamptz '2000-01-02+00'::ulid"
expect "range one day: row count" \
    "$(q coord "SELECT count(*) FROM events WHERE id >= $LO::ulid AND id < $HI::ulid")" -gt 0

# A bound from now() (STABLE) is not shipped as such; as a scalar subquery it becomes a parameter.
plan="$(q coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= (now() - interval '1 day')::ulid")"
expect "bound from now(): local Filter lines (not pushed down)" "$(count_lines "$plan" 'Filter:')" -eq 4
plan="$(q coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= (SELECT (now() - interval '1 day')::ulid)")"
# shellcheck disable=SC2016 # $1 is the Remote SQL parameter, literally
expect "bound from now() in a scalar subquery: Remote SQL lines with the parameter" \
    "$(count_lines "$plan" 'WHERE ((id OPERATOR(public.>=) $1::public.ulid))')" -eq 4
same_rows "bound from now() in a scalar subquery" "id >= (SELECT (now() - interval '1 day')::ulid)"

echo
echo "# a server without extensions 'ulid'"
must "coordinator: server shard1_noext (no extensions option), foreign table events_p0_noext" qf coord <<SQL
CREATE SERVER shard1_noext FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '127.0.0.1', port '$P1', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1_noext OPTIONS (user 'postgres');
CREATE FOREIGN TABLE events_p0_noext (id ulid, n int, payload text)
    SERVER shard1_noext OPTIONS (table_name 'events_p0');
SQL
plan="$(q coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events_p0_noext WHERE id >= $LO::ulid AND id < $HI::ulid")"
printf '%s\n' "$plan" | sed 's/^/#   /'
expect_contains "without extensions 'ulid': Remote SQL fetches the whole table" "$plan" \
    "Remote SQL: SELECT id, n, payload FROM public.events_p0"
expect_lacks "without extensions 'ulid': no WHERE in Remote SQL" "$plan" "WHERE"
expect "without extensions 'ulid': local Filter lines" "$(count_lines "$plan" "Filter: ((events_p0_noext.id >= '$LO_ULID'::ulid)")" -eq 1
a="$(q coord "$digest FROM events_p0_noext WHERE id >= $LO::ulid AND id < $HI::ulid")"
b="$(q coord "$digest FROM events_local_p0 WHERE id >= $LO::ulid AND id < $HI::ulid")"
expect_str "without extensions 'ulid': same rows as the local copy (${b%% *} rows)" "$a" "$b"

echo
echo "# aggregates by day across shards"
DAY="date_bin('1 day', ulid_to_timestamp(id), timestamptz '2000-01-01 00:00:00+00')"
DAY_REMOTE="Remote SQL: SELECT date_bin('1 day'::interval, public.ulid_to_timestamp(id), '2000-01-01 00:00:00+00'::timestamp with time zone), count(*) FROM public.events_p0 GROUP BY 1"
if ((PGNUM < 140000)); then
    expect_contains "before 14: no date_bin()" "$(q coord "SELECT $DAY FROM events_local LIMIT 1" 2>&1)" "function date_bin(unknown, timestamp with time zone, timestamp with time zone) does not exist"
    # whole days since 2000-01-01 UTC, from immutable functions only (13's postgres_fdw does not
    # push the aggregate down even so: observed below)
    DAY="date_part('day', ulid_to_timestamp(id) - timestamptz '2000-01-01 00:00:00+00')"
        note "days as $DAY instead"
fi
a="$(q coord "SELECT $DAY AS day, count(*) FROM events GROUP BY 1 ORDER BY 1")"
b="$(q coord "SELECT $DAY AS day, count(*) FROM events_local GROUP BY 1 ORDER BY 1")"
printf '%s\n' "$a" | sed 's/^/#   /'
expect_str "rows per day (date_bin) on events equal the local copy's ($(count_lines "$b" '|') days)" "$a" "$b"
expect "days with rows" "$(count_lines "$a" '|')" -ge 9
a="$(q coord "SELECT date_trunc('day', ulid_to_timestamp(id) AT TIME ZONE 'UTC') AS day, count(*), min(id), max(id)
              FROM events GROUP BY 1 ORDER BY 1")"
b="$(q coord "SELECT date_trunc('day', ulid_to_timestamp(id) AT TIME ZONE 'UTC') AS day, count(*), min(id), max(id)
              FROM events_local GROUP BY 1 ORDER BY 1")"
expect_str "rows, min(id), max(id) per UTC day (AT TIME ZONE) on events equal the local copy's" "$a" "$b"

plan="$(q coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT $DAY AS day, count(*) FROM events_p0 GROUP BY 1")"
printf '%s\n' "$plan" | sed 's/^/#   /'
if ((PGNUM >= 140000)); then
    expect_contains "one foreign table: GROUP BY date_bin(...) is pushed down" "$plan" \
        "Relations: Aggregate on (public.events_p0)"
    expect_contains "one foreign table: Remote SQL groups by date_bin(..., public.ulid_to_timestamp(id), ...)" "$plan" \
        "$DAY_REMOTE"
else
    note "observed before 14: GROUP BY ${DAY%%(*}(...) on one foreign table:" \
        "$(count_lines "$plan" 'Relations: Aggregate on') aggregate(s) on the shard," \
        "Remote SQL: $(printf '%s\n' "$plan" | grep -m1 -o 'Remote SQL: .*' | sed 's/Remote SQL: //')"
fi
plan="$(q coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT ulid_to_timestamp(id) AT TIME ZONE 'UTC', count(*) FROM events_p0 GROUP BY 1")"
expect_lacks "one foreign table: GROUP BY ulid_to_timestamp(id) AT TIME ZONE 'UTC' is not pushed down" "$plan" \
    "Relations: Aggregate on"
for pw in off on; do
    plan="$(q coord "SET enable_partitionwise_aggregate = $pw;
                     EXPLAIN (VERBOSE, COSTS OFF) SELECT $DAY AS day, count(*) FROM events GROUP BY 1")"
    note "observed: hash-partitioned parent, enable_partitionwise_aggregate = $pw:" \
        "$(count_lines "$plan" 'Relations: Aggregate on') of 4 partitions aggregate on the shards," \
        "$(count_lines "$plan" 'Partial') partial aggregates on the coordinator," \
        "Remote SQL: $(printf '%s\n' "$plan" | grep -m1 -o 'Remote SQL: .*' | sed 's/Remote SQL: //')"
done
# The form that runs on the shards: one aggregate per partition, added up on the coordinator.
PER_SHARD="SELECT day, sum(n)::bigint AS n FROM (
    SELECT $DAY AS day, count(*) AS n FROM events_p0 GROUP BY 1
    UNION ALL SELECT $DAY, count(*) FROM events_p1 GROUP BY 1
    UNION ALL SELECT $DAY, count(*) FROM events_p2 GROUP BY 1
    UNION ALL SELECT $DAY, count(*) FROM events_p3 GROUP BY 1
) per_partition GROUP BY day ORDER BY day"
plan="$(q coord "EXPLAIN (VERBOSE, COSTS OFF) $PER_SHARD")"
if ((PGNUM >= 140000)); then
    expect "UNION ALL of per-partition aggregates: partitions aggregated on the shards" \
        "$(count_lines "$plan" 'Relations: Aggregate on')" -eq 4
else
    note "observed before 14: UNION ALL of per-partition aggregates:" \
        "$(count_lines "$plan" 'Relations: Aggregate on') of 4 partitions aggregated on the shards"
fi
a="$(q coord "$PER_SHARD")"
b="$(q coord "SELECT $DAY AS day, count(*) FROM events_local GROUP BY 1 ORDER BY 1")"
expect_str "UNION ALL of per-partition aggregates: rows per day equal the local copy's" "$a" "$b"

echo
echo "# the extension in another schema on a shard"
must "shard1: database ws with the extension in schema ulid_ext" eval \
    "q shard1 'CREATE DATABASE ws' && cluster_psql shard1 -d ws -c \"CREATE SCHEMA ulid_ext;
        CREATE EXTENSION ulid SCHEMA ulid_ext;
        CREATE TABLE public.events_ws (id ulid_ext.ulid, payload text);
        INSERT INTO events_ws VALUES ('$PID', 'x')\""
must "coordinator: server shard1_ws (extensions 'ulid'), foreign table events_ws" qf coord <<SQL
CREATE SERVER shard1_ws FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '127.0.0.1', port '$P1', dbname 'ws', extensions 'ulid');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1_ws OPTIONS (user 'postgres');
CREATE FOREIGN TABLE events_ws (id ulid, payload text) SERVER shard1_ws;
SQL
expect_str "other schema: a scan without a condition works" "$(q coord 'SELECT id FROM events_ws')" "$PID"
out="$(q coord "SELECT * FROM events_ws WHERE id = '$PID'" 2>&1)"
if ((PGNUM >= 150000)); then
    expect_contains "other schema: a pushed-down condition fails on the shard (OPERATOR(public.=) does not exist there)" \
        "$out" "operator does not exist: ulid_ext.ulid public.="
else # 13 and 14 also send the constant as '...'::public.ulid, which fails first
    expect_contains "other schema: a pushed-down condition fails on the shard (type public.ulid does not exist there)" \
        "$out" 'type "public.ulid" does not exist'
fi

checks_summary
