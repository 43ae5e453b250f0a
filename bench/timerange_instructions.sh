#!/usr/bin/env bash
# bench/timerange_instructions.sh: querying by time in instructions, not seconds. The last hour of a
# table of ROWS rows (one a second) through its key, by the forms scripts/bench --timerange times:
#   id >= $1 - interval '1 hour'                       (ulid compared with timestamptz, rewritten)
#   id >= ulid_min($1 - interval '1 hour')             (the hand-made form the target is against)
#   created_at >= $1 - interval '1 hour'               (a timestamptz column with its own index)
# each a prepared statement with a generic plan (planned once, its bound computed at each
# execution, as in a PL/pgSQL loop or a driver's prepared statement), executed N times in one
# single-user backend (postgres --single) under valgrind's callgrind. Instructions are counted, so
# a run repeats to the instruction whatever else the machine does: the 2% the target asks for is
# resolved where the timed benchmark's rounds on this 2-core machine move by more than that. Per
# query = (instructions of 250 executions - those of 50) / 200, so start-up and planning cancel out.
#
#   bench/timerange_instructions.sh PG_CONFIG [ROWS]    (ROWS: default 1,000,000)
#
# As root (the server runs as postgres). PG_CONFIG's server must have the extension installed
# (make install PG_CONFIG=...). Prints a Markdown table; writes nothing into the tree. A benchmark,
# not a test: nothing fails on a missed target.
set -euo pipefail
pgc="${1:?usage: bench/timerange_instructions.sh PG_CONFIG [ROWS]}"
rows="${2:-1000000}"
bin="$("$pgc" --bindir)"
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
work="$(mktemp -d -t ulid-tr-instr.XXXXXX)"
chmod 755 "$work"
chown postgres: "$work"
as_pg() { runuser -u postgres -- "$@"; }
trap 'as_pg "$bin/pg_ctl" -D "$work/data" stop -m immediate >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

as_pg "$bin/initdb" -D "$work/data" -A trust --locale=C.UTF-8 -E UTF8 >/dev/null
as_pg "$bin/pg_ctl" -D "$work/data" -o "-c listen_addresses='' -k $work" -l "$work/log" -w start >/dev/null
as_pg "$bin/psql" -X -q -h "$work" -d postgres -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION ulid;
-- one row a second up to the second before the fixed time the queries ask about
CREATE TABLE tr_ulid (id ulid PRIMARY KEY, payload int);
INSERT INTO tr_ulid SELECT gen_ulid(timestamptz '2026-06-01+00' - make_interval(secs => $rows + 1 - i)), i
FROM generate_series(1, $rows) i;
CREATE TABLE tr_ts (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), created_at timestamptz NOT NULL, payload int);
INSERT INTO tr_ts (created_at, payload) SELECT timestamptz '2026-06-01+00' - make_interval(secs => $rows + 1 - i), i
FROM generate_series(1, $rows) i;
CREATE INDEX tr_ts_created_at ON tr_ts (created_at);
VACUUM ANALYZE tr_ulid, tr_ts;
SQL
as_pg "$bin/pg_ctl" -D "$work/data" stop -m fast >/dev/null

declare -A forms=(
    [ulid]="SELECT count(*) FROM tr_ulid WHERE id >= \$1 - interval '1 hour'"
    [ulid_min]="SELECT count(*) FROM tr_ulid WHERE id >= ulid_min(\$1 - interval '1 hour')"
    [timestamptz]="SELECT count(*) FROM tr_ts WHERE created_at >= \$1 - interval '1 hour'"
)
# instructions FORM N: callgrind's total for N executions of FORM in one single-user backend
instructions() {
    local f="$work/$1.$2.sql" i
    {
        echo "SET plan_cache_mode = force_generic_plan;"
        echo "PREPARE q(timestamptz) AS ${forms[$1]};"
        for ((i = 0; i < $2; i++)); do echo "EXECUTE q('2026-06-01+00');"; done
    } >"$f"
    as_pg valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
        "$bin/postgres" --single -D "$work/data" postgres <"$f" >"$work/out" 2>"$work/err"
    grep -q 'count = "3600"' "$work/out" || { echo "$1: the query did not count 3600 rows" >&2; cat "$work/out" >&2; exit 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/err"
}
declare -A per
for form in ulid ulid_min timestamptz; do
    a="$(instructions "$form" 50)"
    b="$(instructions "$form" 250)"
    per[$form]=$(((b - a) / 200))
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
echo "## Querying by time in instructions: $("$bin/postgres" --version), $rows rows"
echo
echo "The last hour (3,600 rows) by a generic plan's parameter; instructions per execution (callgrind,"
echo "250 executions less 50, in one single-user backend)."
echo
echo "| query | instructions per query | ratio |"
echo "|---|---:|---:|"
echo "| \`${forms[ulid]}\` | ${per[ulid]} | $(ratio "${per[ulid]}" "${per[ulid_min]}")× the ulid_min form (target ≤ 1.02×) |"
echo "| \`${forms[ulid_min]}\` | ${per[ulid_min]} | – |"
echo "| \`${forms[timestamptz]}\` | ${per[timestamptz]} | the ulid form is $(ratio "${per[ulid]}" "${per[timestamptz]}")× of it |"
