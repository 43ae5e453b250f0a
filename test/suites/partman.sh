#!/usr/bin/env bash
# pg_partman 5 and ULIDs: Debian trixie's pg-partman 5.2.4, built by scripts/partman-build against the
# server under test (cached; built here on a cold machine), installed into it, in a database of its own:
#   - a native ulid control column: what create_parent says (it takes integer, numeric, date/timestamp,
#     text and uuid columns only);
#   - test/suites/recipes/partman_uuid_monthly.sql (docs/time-and-partitioning.md quotes it): ULIDs in
#     a uuid key, monthly partitions made by create_parent with pg_partman's uuid7_time_encoder and
#     uuid7_time_decoder; the partitions and their bounds (ulid_min() of each month start, as uuid);
#   - rows routed right: the first and last millisecond of a month (ulid_min/ulid_max and gen_ulid of
#     those instants), DEFAULT gen_ulid()::uuid rows, backfilled rows of other months; a row outside
#     every month in the DEFAULT partition (partman.check_default); pruning by ulid_min(...)::uuid;
#   - the encoder and decoder against ulid_min() and ulid_to_timestamp() (the encoder rounds a
#     sub-millisecond time to the nearest millisecond, ulid_min truncates: no month bound has one);
#   - run_maintenance(): more months ahead after premake is raised; retention drops the months that
#     ended before it, with their rows, and keeps the rest.
# Skipped (exit 77) on a major pg_partman 5 does not support (before 14) and on Debian's packaged server
# (its pg_partman is Debian's 4.7, which t/100_partitioning.pl shows refusing both column types), but for
# Debian's 19 in the sid chroot, the test's own, where it is built and installed.
# Prints one line per check, exits non-zero on any violation.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/checks.sh
suite_exit_on_signals

PG_CONFIG="${PG_CONFIG:-pg_config}"
: "${ULID_PG_BINDIR:=$("$PG_CONFIG" --bindir)}"
MAJOR="$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')"
SHAREDIR="$("$PG_CONFIG" --sharedir)"
DB=partman5

note "$("$PG_CONFIG" --version), $SHAREDIR"
if ((MAJOR < 14)); then
    note "skipped: pg_partman 5 needs PostgreSQL 14 or later (its Makefile refuses $MAJOR)"
    exit 77
fi
# (in the sid chroot of 19, scripts/sid-chroot, the archive has no postgresql-19-partman and the
# chroot is the test's own: pg_partman 5 is built and installed into Debian's 19 there)
if [[ $SHAREDIR == "/usr/share/postgresql/$MAJOR" && ${ULID_IN_CHROOT:-} != 1 ]]; then
    note "skipped: Debian's PostgreSQL $MAJOR gets Debian's pg_partman package (4.7 on Debian 12, see t/100_partitioning.pl);"
    note "pg_partman 5 is built for the source-built servers only, not installed over a Debian package"
    exit 77
fi

# q SQL: on the suite's database, unaligned tuples-only output, SQL on standard input
q() { PGDATABASE=$DB "$ULID_PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -At <<<"$1"; }
# month OFFSET: YYYYMM01 of the UTC month OFFSET months from now (pg_partman's partition suffix)
month() { q "SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '$1 months', 'YYYYMMDD')"; }
# start OFFSET: that month's first instant, as a timestamptz literal
start() { q "SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '$1 months', 'YYYY-MM-DD') || ' 00:00:00+00'"; }
partitions() {
    q "SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'events'::regclass"
}
months() { # months FROM TO: "events_default events_p<FROM> ... events_p<TO>"
    local k out="events_default"
    for ((k = $1; k <= $2; k++)); do out+=" events_p$(month "$k")"; done
    printf '%s\n' "$out"
}

echo "# pg_partman 5.2.4 for this server (scripts/partman-build)"
t0=$SECONDS
# shellcheck disable=SC2016 # expanded by the inner bash
must "scripts/partman-build --install $PG_CONFIG" bash -c 'bash scripts/partman-build --install "$1" >/dev/null' - "$PG_CONFIG"
note "build (or cache) and install: $((SECONDS - t0)) s"
must "a database of its own ($DB, UTC)" "$ULID_PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 \
    -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" -c "ALTER DATABASE $DB SET timezone = 'UTC'"
must "CREATE EXTENSION ulid" q "CREATE EXTENSION ulid"

echo
echo "# a native ulid control column"
must "CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman" \
    q "CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman"
expect_str "pg_partman's version" "$(q "SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'")" 5.2.4
must "events_ulid (id ulid) PARTITION BY RANGE (id)" \
    q "CREATE TABLE events_ulid (id ulid NOT NULL DEFAULT gen_ulid()) PARTITION BY RANGE (id)"
expect_contains "create_parent on a ulid column is refused, encoder and decoder given or not" \
    "$(q "SELECT partman.create_parent('public.events_ulid', 'id', '1 month', p_time_encoder => 'partman.uuid7_time_encoder',
                                       p_time_decoder => 'partman.uuid7_time_decoder')" 2>&1)" \
    "ERROR:  pg_partman only supports partitioning of data types that are integer, numeric, date/timestamp or specially encoded text. Supplied column is of type ulid"
expect "nothing was partitioned" "$(q "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events_ulid'::regclass")" -eq 0

echo
echo "# test/suites/recipes/partman_uuid_monthly.sql: ULIDs in a uuid key"
must "the recipe runs" env PGDATABASE=$DB "$ULID_PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -o /dev/null \
    -f test/suites/recipes/partman_uuid_monthly.sql
expect_str "partitions: DEFAULT, 3 months back, this month, 3 ahead" "$(partitions)" "$(months -3 3)"
M0="$(month 0)"
expect_str "events_p$M0 is bounded by ulid_min() of this month's and next month's first instants, as uuid" \
    "$(q "SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE relname = 'events_p$M0'")" \
    "$(q "SELECT format('FOR VALUES FROM (%L) TO (%L)', ulid_min('$(start 0)')::uuid, ulid_min('$(start 1)')::uuid)")"
expect "every month's bounds are ulid_min() of its first instant and the next month's (of 7)" \
    "$(q "SELECT count(*) FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid, generate_series(-3, 3) k,
          LATERAL (SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => k)) AT TIME ZONE 'UTC' AS s) m
          WHERE i.inhparent = 'events'::regclass AND c.relname = 'events_p' || to_char(m.s AT TIME ZONE 'UTC', 'YYYYMMDD')
            AND pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES FROM (%L) TO (%L)', ulid_min(m.s)::uuid,
                                                            ulid_min(m.s + interval '1 month')::uuid)")" -eq 7
expect_str "pg_partman's configuration: the encoder and decoder, retention 12 months" \
    "$(q "SELECT control || ' ' || partition_interval || ' ' || time_encoder || ' ' || time_decoder || ' ' || premake || ' ' || retention
          FROM partman.part_config WHERE parent_table = 'public.events'")" \
    "id 1 mon partman.uuid7_time_encoder partman.uuid7_time_decoder 3 12 months"

echo
echo "# rows land in the partition of their month"
must "rows in the first and last millisecond of this month, and either side of them" q "
    INSERT INTO events (id, kind) VALUES
        (ulid_min('$(start 0)')::uuid, 'first ms, ulid_min'), (gen_ulid('$(start 0)')::uuid, 'first ms, gen_ulid'),
        (ulid_max(timestamptz '$(start 1)' - interval '1 millisecond')::uuid, 'last ms, ulid_max'),
        (gen_ulid(timestamptz '$(start 1)' - interval '1 millisecond')::uuid, 'last ms, gen_ulid'),
        (ulid_max(timestamptz '$(start 0)' - interval '1 millisecond')::uuid, 'month before'),
        (ulid_min('$(start 1)')::uuid, 'month after')"
expect_str "first and last millisecond in events_p$M0, the instants either side in the months beside it" \
    "$(q "SELECT string_agg(kind || ': ' || tableoid::regclass, ', ' ORDER BY id) FROM events")" \
    "month before: events_p$(month -1), first ms, ulid_min: events_p$M0, first ms, gen_ulid: events_p$M0, last ms, gen_ulid: events_p$M0, last ms, ulid_max: events_p$M0, month after: events_p$(month 1)"
must "1,000 rows with DEFAULT gen_ulid()::uuid and 3,000 backfilled over the 3 months back" q "
    INSERT INTO events (kind) SELECT 'live' FROM generate_series(1, 1000);
    INSERT INTO events (id, kind)
    SELECT gen_ulid(s + (now() - s) * random())::uuid, 'backfill'
    FROM (SELECT timestamptz '$(start -3)' AS s) b, generate_series(1, 3000)"
expect "rows outside the partition of their UTC month, by ulid_to_timestamp(id::ulid) (of 4,006)" \
    "$(q "SELECT count(*) FROM events WHERE tableoid::regclass::text <>
          'events_p' || to_char(ulid_to_timestamp(id::ulid) AT TIME ZONE 'UTC', 'YYYYMM') || '01'")" -eq 0
expect "months holding rows (3 back, this month, next month)" "$(q "SELECT count(DISTINCT tableoid) FROM events")" -eq 5
expect_str "a uuid key reads back as the same ULID: id::ulid, and uuid order = ulid order" \
    "$(q "SELECT count(*) FILTER (WHERE id::ulid::uuid = id) || ' ' || bool_and(o1 = o2) FROM (
          SELECT id, row_number() OVER (ORDER BY id) o1, row_number() OVER (ORDER BY id::ulid) o2 FROM events) s")" "4006 true"
must "a row from 2001 (no month for it)" q "INSERT INTO events (id, kind) VALUES (gen_ulid('2001-01-01 00:00:00+00')::uuid, 'stray')"
expect_str "it is in events_default, which partman.check_default() reports" \
    "$(q "SELECT (SELECT tableoid::regclass::text FROM events WHERE kind = 'stray') || ' ' ||
                 (SELECT string_agg(default_table || ' ' || count, ', ') FROM partman.check_default(p_exact_count => true))")" \
    "events_default public.events_default 1"
must "delete it" q "DELETE FROM events WHERE kind = 'stray'"
p="$(q "EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id >= ulid_min('$(start 0)')::uuid AND id < ulid_min('$(start 1)')::uuid")"
expect_str "a time range on the key, ulid_min(...)::uuid bounds: only events_p$M0 is scanned (pruned when planning)" \
    "$(grep -oE 'on events_[a-z0-9]+' <<<"$p" | sed 's/^on //' | sort -u | tr '\n' ' ' | sed 's/ $//')" "events_p$M0"

echo
echo "# pg_partman's uuid7 encoder and decoder on ULIDs"
expect_str "uuid7_time_encoder(month start) = ulid_min(month start)::uuid, for every month here" \
    "$(q "SELECT count(*) FILTER (WHERE partman.uuid7_time_encoder(s) = ulid_min(s)::uuid) FROM (
          SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => k)) AT TIME ZONE 'UTC' s
          FROM generate_series(-600, 600) k) m")" 1201
expect_str "uuid7_time_decoder(id::text) = ulid_to_timestamp(id::ulid) for every row" \
    "$(q "SELECT count(*) FILTER (WHERE partman.uuid7_time_decoder(id::text) = ulid_to_timestamp(id::ulid)) FROM events")" 4006
expect_str "sub-millisecond: the encoder rounds to the nearest millisecond, ulid_min truncates" \
    "$(q "SELECT partman.uuid7_time_encoder(t) = ulid_min(t + interval '1 millisecond')::uuid, ulid_min(t)::uuid = ulid_min(date_trunc('milliseconds', t))::uuid
          FROM (SELECT timestamptz '$(start 0)' + interval '0.6 milliseconds' t) s" | tr '|' ' ')" "t t"

echo
echo "# run_maintenance()"
must "premake 6, then partman.run_maintenance('public.events')" \
    q "UPDATE partman.part_config SET premake = 6 WHERE parent_table = 'public.events'; SELECT partman.run_maintenance('public.events')"
expect_str "partitions: 6 months ahead of the newest row's month (next month's; infinite_time_partitions is off)" \
    "$(partitions)" "$(months -3 7)"
keep="$(q "SELECT count(*) FROM events WHERE id >= ulid_min('$(start -2)')::uuid")"
must "retention 2 months, then partman.run_maintenance('public.events')" \
    q "UPDATE partman.part_config SET retention = '2 months' WHERE parent_table = 'public.events'; SELECT partman.run_maintenance('public.events')"
expect_str "partitions: the month that ended more than 2 months ago is dropped" "$(partitions)" "$(months -2 7)"
expect "its table is gone (retention_keep_table = false)" \
    "$(q "SELECT count(*) FROM pg_class WHERE relname = 'events_p$(month -3)'")" -eq 0
expect_str "rows of the kept months unchanged, none older left" \
    "$(q "SELECT count(*) || ' ' || count(*) FILTER (WHERE id < ulid_min('$(start -2)')::uuid) FROM events")" "$keep 0"
expect "DEFAULT gen_ulid()::uuid after maintenance lands in events_p$M0 or the month after (if it turned meanwhile)" \
    "$(q "INSERT INTO events (kind) VALUES ('after') RETURNING (tableoid::regclass::text IN ('events_p$M0', 'events_p$(month 1)'))::int")" -eq 1

checks_summary
