#!/usr/bin/env bash
# Time partitioning on the ulid key: the recipes in test/suites/recipes/partition_*.sql, run verbatim
# (docs/time-and-partitioning.md quotes them).
#
# On the suite's server (PG* environment):
#   - partition_by_month.sql: events PARTITION BY RANGE (id), monthly partitions bounded by
#     ulid_min(<first instant of the month, UTC>), a BRIN index on the parent, and the procedure
#     create_month_partitions(parent, months_ahead, since); called again from 5 months back;
#   - DEFAULT gen_ulid() rows land in the current month's partition; 20,000 backfilled rows
#     (gen_ulid(timestamptz)) and rows for next month each in the partition of their month;
#   - plan-time pruning for constant bounds (ulid_min(literal), literal::timestamptz::ulid): one
#     partition in the plan; run-time pruning for now()-based bounds: `Subplans Removed`, the right
#     partitions scanned, the same count as an unprunable filter on ulid_to_timestamp(id), which
#     scans every partition;
#   - the BRIN index exists, valid, on every partition and serves a time range (with the btree
#     hidden inside a rolled-back transaction), same rows;
#   - a DEFAULT partition: rows outside every month go there; it makes DETACH ... CONCURRENTLY
#     fail, and creating a month whose rows sit in it fail, until they are moved out;
#   - partition_retention.sql: months before the last 3 whole months are detached CONCURRENTLY and
#     dropped, the others and their rows stay;
#   - pg_partman (Debian's postgresql-<major>-partman, where packaged): what create_parent says to
#     a ulid control column, and to a uuid column holding ulid bytes.
# On a server of its own with shared_preload_libraries = 'pg_cron' (where postgresql-<major>-cron
# is packaged; otherwise reported as not applicable): partition_cron.sql schedules the procedure; the
# job, moved to every minute, runs and creates the missing months (waits for its run, bounded).
# PostgreSQL 13 has no DETACH PARTITION ... CONCURRENTLY: the suite checks the syntax error users
# get (from the statement and from the retention recipe) and runs the recipe without CONCURRENTLY.
# Prints one line per check, exits non-zero on any violation.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
PG_CONFIG="${PG_CONFIG:-pg_config}"
: "${ULID_PG_BINDIR:=$("$PG_CONFIG" --bindir)}"
export ULID_PG_BINDIR
source test/lib/cluster.sh
source test/lib/checks.sh
suite_exit_on_signals

RECIPES=test/suites/recipes
MAJOR="$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')"
PGNUM="$("$ULID_PG_BINDIR/psql" -X -Atc 'SHOW server_version_num')"
SHAREDIR="$("$PG_CONFIG" --sharedir)"
BACKFILL=20000

# q SQL: one query on the suite's server, unaligned tuples-only output
# (on standard input: psql before 15 prints only the last result of a multi-statement -c)
q() { "$ULID_PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -At <<<"$1"; }
# recipe FILE: a recipe, verbatim, on the suite's server
recipe() { "$ULID_PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -f "$RECIPES/$1"; }
# month OFFSET: YYYYMM of the UTC month OFFSET months from now
month() { q "SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '$1 months', 'YYYYMM')"; }
# month_start OFFSET: that month's first instant, as a timestamptz literal
month_start() {
    q "SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '$1 months', 'YYYY-MM-DD') || ' 00:00:00+00'"
}
# plan SQL: EXPLAIN (ANALYZE) of SQL, UTC session
plan() { q "SET TimeZone = 'UTC'; EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $1"; }
# scanned PLAN: the distinct events partitions a plan scans, space-separated
scanned() { grep -oE 'on events_[0-9]{6}' <<<"$1" | sed 's/^on //' | sort -u | tr '\n' ' ' | sed 's/ $//'; }

# ensure_debian_extension NAME PACKAGE: the extension's files for the server under test, from
# Debian's package when the server is Debian's and the package exists; returns 1 when unavailable
ensure_debian_extension() {
    local ext="$1" pkg="$2"
    [[ -f $SHAREDIR/extension/$ext.control ]] && return 0
    if [[ $SHAREDIR != "/usr/share/postgresql/$MAJOR" ]]; then
        note "$ext: the server under test is not Debian's ($SHAREDIR); $pkg does not apply"
        return 1
    fi
    if ! apt-cache show "$pkg" >/dev/null 2>&1; then
        note "$ext: Debian has no package $pkg"
        return 1
    fi
    (source scripts/lib.sh && ulid_ensure_packages "$pkg") >/dev/null || {
        note "$ext: installing $pkg failed"
        return 1
    }
    [[ -f $SHAREDIR/extension/$ext.control ]]
}

# ---------------------------------------------------------------------------------------------
# pg_cron first: its server starts now, and its job's run is awaited at the end
echo "# pg_cron server (own cluster, shared_preload_libraries = 'pg_cron')"
CRON=0
if ensure_debian_extension pg_cron "postgresql-$MAJOR-cron"; then
    CRON=1
    must "cron: start server with pg_cron preloaded" cluster_init cron --no-sync
    cluster_conf cron "shared_preload_libraries = 'pg_cron'" "cron.database_name = 'postgres'" \
        "cron.host = '$(cluster_host cron)'"
    must "cron: server up" cluster_start cron
    qc() { cluster_psql cron -d postgres -At -c "$1"; }
    must "cron: ulid and partition_by_month.sql (this month and the next only)" \
        cluster_psql cron -d postgres -c 'CREATE EXTENSION ulid' -c "$(sed 's/^CALL create_month_partitions.*;$/CALL create_month_partitions('"'events'"', 1);/' "$RECIPES/partition_by_month.sql")"
    expect "cron: partitions before the job runs" "$(qc "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass")" -eq 2
    must "cron: partition_cron.sql runs" cluster_psql cron -d postgres -o /dev/null -f "$RECIPES/partition_cron.sql"
    expect_str "cron: the job is scheduled daily at 03:00 with the CALL" \
        "$(qc "SELECT schedule || ' | ' || command FROM cron.job WHERE jobname = 'events-partitions'")" \
        "0 3 * * * | CALL create_month_partitions('events', 3)"
    must "cron: the job moved to every minute (to see it run here)" \
        qc "SELECT cron.alter_job(jobid, schedule => '* * * * *') FROM cron.job WHERE jobname = 'events-partitions'"
else
    note "pg_cron: not applicable to this server (PostgreSQL $MAJOR, $SHAREDIR): no pg_cron for it"
fi

# ---------------------------------------------------------------------------------------------
echo
echo "# partition_by_month.sql on the suite's server"
note "$(q 'SELECT version()')"
must "CREATE EXTENSION ulid" q 'CREATE EXTENSION IF NOT EXISTS ulid'
must "partition_by_month.sql runs" recipe partition_by_month.sql
M0="$(month 0)"
expect_str "partitions made by the recipe: this month and the 3 after it" \
    "$(q "SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'events'::regclass")" \
    "events_$M0 events_$(month 1) events_$(month 2) events_$(month 3)"
expect_str "events_$M0 is bounded by ulid_min() of the first instants of this month and the next" \
    "$(q "SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE relname = 'events_$M0'")" \
    "$(q "SELECT format('FOR VALUES FROM (%L) TO (%L)', ulid_min('$(month_start 0)'), ulid_min('$(month_start 1)'))")"
must "CALL create_month_partitions('events', 3, since => now() - interval '5 months')" \
    q "CALL create_month_partitions('events', 3, since => now() - interval '5 months')"
expect "partitions after the second call (5 back, this month, 3 ahead; nothing made twice)" \
    "$(q "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass")" -eq 9

echo
echo "# rows land in the partition of their month"
must "1,000 rows with DEFAULT gen_ulid() (the time before and after recorded)" q "
    CREATE TABLE live_window AS SELECT clock_timestamp() AS t0;
    INSERT INTO events (kind) SELECT 'live' FROM generate_series(1, 1000);
    ALTER TABLE live_window ADD COLUMN t1 timestamptz;
    UPDATE live_window SET t1 = clock_timestamp()"
expect "DEFAULT gen_ulid() rows in the partition of the current month (of 1000)" \
    "$(q "SELECT count(*) FROM events, live_window WHERE kind = 'live' AND events.tableoid::regclass::text IN
          ('events_' || to_char(t0 AT TIME ZONE 'UTC', 'YYYYMM'), 'events_' || to_char(t1 AT TIME ZONE 'UTC', 'YYYYMM'))")" -eq 1000
must "$BACKFILL backfilled rows over the last 5 months, 100 for next month (gen_ulid(timestamptz))" q "
    INSERT INTO events (id, kind)
    SELECT gen_ulid(start + (now() - interval '1 second' - start) * (g::float8 / $BACKFILL)), 'backfill'
    FROM (SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '5 months') AT TIME ZONE 'UTC') s(start),
         generate_series(0, $BACKFILL - 1) g;
    INSERT INTO events (id, kind) SELECT gen_ulid(now() + interval '1 month'), 'next' FROM generate_series(1, 100);
    ANALYZE events"
expect "rows outside the partition of their UTC month (of $((BACKFILL + 1100)))" \
    "$(q "SELECT count(*) FROM events
          WHERE tableoid::regclass::text <> 'events_' || to_char(ulid_to_timestamp(id) AT TIME ZONE 'UTC', 'YYYYMM')")" -eq 0
expect "partitions holding rows (5 back, this month, next month)" \
    "$(q "SELECT count(DISTINCT tableoid) FROM events")" -eq 7
expect "rows in events_$(month 1) (the 100 of next month)" "$(q "SELECT count(*) FROM events_$(month 1)")" -eq 100

echo
echo "# partition pruning"
M2="$(month -2)"
S2="$(month_start -2)"
S1="$(month_start -1)"
want2="$(q "SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= '$S2' AND ulid_to_timestamp(id) < '$S1'")"
expect "rows two months back (by ulid_to_timestamp)" "$want2" -gt 0
p="$(plan "SELECT count(*) FROM events WHERE id >= ulid_min('$S2') AND id < ulid_min('$S1')")"
expect_str "plan-time: ulid_min('$S2') .. ulid_min('$S1') scans only events_$M2" "$(scanned "$p")" "events_$M2"
expect_lacks "plan-time: pruned while planning (no Subplans Removed)" "$p" "Subplans Removed"
expect_str "plan-time: rows two months back through the pruned plan" \
    "$(q "SELECT count(*) FROM events WHERE id >= ulid_min('$S2') AND id < ulid_min('$S1')")" "$want2"
p="$(plan "SELECT count(*) FROM events WHERE id >= '$S2'::timestamptz::ulid AND id < '$S1'::timestamptz::ulid")"
expect_str "plan-time: the same with timestamptz::ulid casts" "$(scanned "$p")" "events_$M2"

RANGE_NOW="id >= ulid_min(date_trunc('month', now(), 'UTC')) AND id < ulid_min(date_trunc('month', now(), 'UTC') + interval '1 month')"
p="$(plan "SELECT count(*) FROM events WHERE $RANGE_NOW")"
expect_contains "run-time: this month by now()-based bounds: Subplans Removed: 8" "$p" "Subplans Removed: 8"
expect_str "run-time: only events_$M0 scanned" "$(scanned "$p")" "events_$M0"
expect_str "run-time: this month's rows through the pruned plan = by ulid_to_timestamp" \
    "$(q "SELECT count(*) FROM events WHERE $RANGE_NOW")" \
    "$(q "SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= date_trunc('month', now(), 'UTC')
                                         AND ulid_to_timestamp(id) < date_trunc('month', now(), 'UTC') + interval '1 month'")"
p="$(plan "SELECT count(*) FROM events WHERE id >= ulid_min(now() - interval '7 days')")"
expect_match "run-time: the last 7 days (id >= ulid_min(now() - interval '7 days')) removes the older months" \
    "$p" "Subplans Removed: [4-5]"
expect_str "run-time: the last 7 days, rows = by ulid_to_timestamp" \
    "$(q "SELECT count(*) FROM events WHERE id >= ulid_min(now() - interval '7 days')")" \
    "$(q "SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= now() - interval '7 days'")"
p="$(plan "SELECT count(*) FROM events WHERE ulid_to_timestamp(id) >= now() - interval '7 days'")"
expect "what not to do: a filter on ulid_to_timestamp(id) prunes nothing (partitions scanned)" \
    "$(wc -w <<<"$(scanned "$p")")" -eq 9

echo
echo "# BRIN on every partition"
expect "partitions with a valid BRIN index on id (of 9)" \
    "$(q "SELECT count(DISTINCT x.indrelid) FROM pg_index x JOIN pg_class ic ON ic.oid = x.indexrelid
          JOIN pg_am am ON am.oid = ic.relam JOIN pg_inherits i ON i.inhrelid = x.indrelid
          WHERE i.inhparent = 'events'::regclass AND am.amname = 'brin' AND x.indisvalid")" -eq 9
p="$(q "BEGIN; ALTER TABLE events DROP CONSTRAINT events_pkey; SET LOCAL enable_seqscan = off;
        EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id >= ulid_min('$S2') AND id < ulid_min('$S1');
        ROLLBACK")"
expect_match "a time range uses events_${M2}'s BRIN index (btree hidden in a rolled-back transaction)" \
    "$p" "Bitmap Index Scan on events_${M2}_id_idx"
expect_str "rows two months back through the BRIN index" \
    "$(q "BEGIN; ALTER TABLE events DROP CONSTRAINT events_pkey; SET LOCAL enable_seqscan = off;
          SELECT count(*) FROM events WHERE id >= ulid_min('$S2') AND id < ulid_min('$S1'); ROLLBACK")" "$want2"

echo
echo "# a DEFAULT partition"
must "events_default PARTITION OF events DEFAULT" q "CREATE TABLE events_default PARTITION OF events DEFAULT"
must "a row from 2001 and one 6 months ahead" q "
    INSERT INTO events (id, kind) VALUES (gen_ulid('2001-01-01 00:00:00+00'), 'stray old'),
                                         (gen_ulid(now() + interval '6 months'), 'stray ahead')"
expect_str "both in events_default" \
    "$(q "SELECT string_agg(tableoid::regclass::text, ' ') FROM events WHERE kind LIKE 'stray%'")" "events_default events_default"
out="$(q "ALTER TABLE events DETACH PARTITION events_$(month -5) CONCURRENTLY" 2>&1)"
if ((PGNUM >= 140000)); then
    expect_contains "DETACH PARTITION ... CONCURRENTLY is refused while a DEFAULT partition exists" \
        "$out" "cannot detach partitions concurrently when a default partition exists"
else
    expect_contains "before 14 there is no DETACH PARTITION ... CONCURRENTLY" "$out" 'syntax error at or near "CONCURRENTLY"'
fi
out="$(q "CALL create_month_partitions('events', 6)" 2>&1)"
expect_contains "creating the month of a row in events_default fails" \
    "$out" 'updated partition constraint for default partition "events_default" would be violated by some row'
must "move the row out of events_default, create the months, put it back (one transaction)" q "
    BEGIN;
    CREATE TEMP TABLE stray (LIKE events);
    WITH moved AS (DELETE FROM events_default WHERE id >= ulid_min(now()) RETURNING *)
    INSERT INTO stray SELECT * FROM moved;
    CALL create_month_partitions('events', 6);
    INSERT INTO events SELECT * FROM stray;
    COMMIT"
expect_str "the row 6 months ahead is now in events_$(month 6)" \
    "$(q "SELECT tableoid::regclass FROM events WHERE kind = 'stray ahead'")" "events_$(month 6)"
must "DETACH (not concurrently) and DROP events_default" \
    q "ALTER TABLE events DETACH PARTITION events_default; DROP TABLE events_default"
out="$(q "INSERT INTO events (id, kind) VALUES (gen_ulid('2001-01-01 00:00:00+00'), 'no partition')" 2>&1)"
expect_contains "without a DEFAULT partition a row outside every month is refused" "$out" \
    'no partition of relation "events" found for row'

echo
echo "# retention ($RECIPES/partition_retention.sql)"
before="$(q "SELECT count(*) FROM events WHERE id >= ulid_min('$(month_start -3)')")"
if ((PGNUM >= 140000)); then
    must "partition_retention.sql runs" recipe partition_retention.sql
else
    expect_contains "before 14 partition_retention.sql stops at its first DETACH ... CONCURRENTLY" \
        "$(recipe partition_retention.sql 2>&1)" 'syntax error at or near "CONCURRENTLY"'
    recipe_plain() { sed 's/ CONCURRENTLY//' "$RECIPES/$1" | "$ULID_PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1; }
    must "partition_retention.sql without CONCURRENTLY (a plain DETACH locks events meanwhile) runs" \
        recipe_plain partition_retention.sql
fi
expect_str "partitions left: 3 whole months back, this month, 6 ahead" \
    "$(q "SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'events'::regclass")" \
    "$(for k in -3 -2 -1 0 1 2 3 4 5 6; do printf 'events_%s ' "$(month "$k")"; done | sed 's/ $//')"
expect "detached months dropped too (tables named events_$(month -5), events_$(month -4))" \
    "$(q "SELECT count(*) FROM pg_class WHERE relname IN ('events_$(month -5)', 'events_$(month -4)')")" -eq 0
expect_str "rows of the kept months unchanged" "$(q "SELECT count(*) FROM events")" "$before"
expect "rows older than 3 whole months left" \
    "$(q "SELECT count(*) FROM events WHERE id < ulid_min('$(month_start -3)')")" -eq 0
expect "DEFAULT gen_ulid() after retention lands in events_$M0 (month of now)" \
    "$(q "INSERT INTO events (kind) VALUES ('after') RETURNING (tableoid::regclass::text = 'events_' || to_char(now() AT TIME ZONE 'UTC', 'YYYYMM'))::int")" -eq 1

echo
echo "# pg_partman (Debian's postgresql-$MAJOR-partman)"
if [[ $SHAREDIR != "/usr/share/postgresql/$MAJOR" ]]; then
    note "pg_partman: not Debian's server; pg_partman 5 on the source-built servers is test/suites/partman.sh's"
elif ensure_debian_extension pg_partman "postgresql-$MAJOR-partman"; then
    must "CREATE EXTENSION pg_partman SCHEMA partman" \
        q "CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman"
    note "pg_partman $(q "SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'")"
    must "tables pm_ulid (ulid key) and pm_uuid (uuid key holding gen_ulid() bytes), PARTITION BY RANGE (id)" q "
        CREATE TABLE pm_ulid (id ulid NOT NULL DEFAULT gen_ulid()) PARTITION BY RANGE (id);
        CREATE TABLE pm_uuid (id uuid NOT NULL DEFAULT gen_ulid()::uuid) PARTITION BY RANGE (id)"
    for t in ulid uuid; do
        out="$(q "SELECT partman.create_parent('public.pm_$t', 'id', 'native', 'monthly')" 2>&1)"
        if [[ $(q "SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'") == 4.* ]]; then
            expect_contains "pg_partman 4: create_parent on a $t control column is refused" "$out" \
                "pg_partman only supports partitioning of data types that are integer or date/timestamp. Supplied column is of type $t"
        else
            note "pg_partman $(q "SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'") on a $t column said: $out"
        fi
    done
else
    note "pg_partman: not applicable to this server (no package for PostgreSQL $MAJOR)"
fi

# ---------------------------------------------------------------------------------------------
if ((CRON)); then
    echo
    echo "# pg_cron: the job's run (it starts on the next whole minute; waits at most 150 s)"
    for _ in $(seq 1 150); do
        [[ $(qc "SELECT count(*) FROM cron.job_run_details WHERE status IN ('succeeded', 'failed')") != 0 ]] && break
        sleep 1
    done
    expect_str "cron: the job's first run succeeded" \
        "$(qc "SELECT status || ' ' || command FROM cron.job_run_details ORDER BY runid LIMIT 1")" \
        "succeeded CALL create_month_partitions('events', 3)"
    expect_str "cron: partitions after the job: this month and the 3 after it" \
        "$(qc "SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
               WHERE i.inhparent = 'events'::regclass")" \
        "events_$M0 events_$(month 1) events_$(month 2) events_$(month 3)"
    expect "cron: every partition has the BRIN index" \
        "$(qc "SELECT count(*) FROM pg_inherits i JOIN pg_index x ON x.indrelid = i.inhrelid
               JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_am am ON am.oid = ic.relam
               WHERE i.inhparent = 'events'::regclass AND am.amname = 'brin'")" -eq 4
fi

checks_summary
