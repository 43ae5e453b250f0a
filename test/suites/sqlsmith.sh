#!/usr/bin/env bash
# SQL-level fuzzing with SQLsmith (Debian's sqlsmith package): random, type-correct queries built
# from the catalog, so every ulid function, operator, cast and aggregate is called with odd
# arguments, inside joins, subqueries, CASE, window functions and DML.
#
# A cluster of its own (test/lib/cluster.sh), so that its server log can be read: every line carries
# the user and the SQLSTATE, errors carry their source location (log_error_verbosity = verbose), and
# a crashed backend's query is logged whole (track_activity_query_size). Fixture, in a database
# smith: the extension; table smith_ulid (ulid primary key, nullable ulid, uuid, ulid[] with NULL
# elements, timestamptz, text and bytea holding valid and invalid ULID texts and 0/2/15/16/17-byte
# values, NULLs and the extremes 00000000000000000000000000 / 7ZZZZZZZZZZZZZZZZZZZZZZZZZ,
# timestamps at the ends of the ULID range, outside it and infinite), an index for every operator
# class of the extension on this major on every column of its input type, read from the catalog
# (btree, hash, BRIN minmax, and minmax-multi and bloom on 14+ on the two ulid columns; 0.3.0's
# cross-type uuid_ulid_ops on the uuid column; whatever later releases add is picked up without
# changing this file, and a class with no column of its type fails a check), a GIN index on the
# ulid[] column, extended statistics; smith_uuid (uuid key, ulid foreign key, ulid[]); smith_range
# (PARTITION BY RANGE on a ulid, with a DEFAULT partition) and smith_hash (PARTITION BY HASH on a
# ulid); ANALYZE.
#
# sqlsmith runs as ulid_smith, a role without superuser (a superuser's sqlsmith calls
# pg_terminate_backend and the like) that may SELECT, INSERT, UPDATE and DELETE the fixture
# (sqlsmith runs each statement in a transaction it rolls back). One run per seed: a fixed seed and
# a random one by default, both printed, each bounded by time (and optionally by a query count).
#
# Checks per run: sqlsmith ran and reported its query count; no crash in the server log — a backend
# or worker ended by a signal or an abnormal exit code, an assertion failure (TRAP), a PANIC, or
# the postmaster's crash recovery; no WARNING of a resource leak or of damaged memory (the
# memory-context checks of an assertion-enabled build); no internal error (SQLSTATE class XX)
# raised by the extension's own code (its LOCATION is one of src/pg/*.cpp, src/core/*.cpp), which
# must give every bad input a clear error with the right SQLSTATE. At the end: the runs called
# ulid functions (pg_stat_user_functions, track_functions = all), the server still answers, and
# bt_index_check(heapallindexed) passes on every btree index of the fixture (the fuzzed DML was
# rolled back; the indexes must still agree with the heaps). Prints per run and in total: queries,
# statements ending in errors by SQLSTATE class (and those the extension raised), crashes, seconds,
# calls of ulid functions and how many of them were called.
#
# Environment:
#   ULID_SQLSMITH_SECONDS  time for all runs together, split evenly between the seeds (default 30;
#                          0 = no time bound, then ULID_SQLSMITH_QUERIES must be set)
#   ULID_SQLSMITH_SEEDS    seeds, one run each; "random" is replaced by a random seed (default
#                          "1601 random")
#   ULID_SQLSMITH_QUERIES  query budget per run (sqlsmith --max-queries; default none)
#   ULID_SQLSMITH_CATALOG  1 = let sqlsmith also read pg_catalog/information_schema relations (by
#                          default it runs with --exclude-catalog: more queries reach the fixture)
#   ULID_SQLSMITH_STATEMENTS  0 = don't log the statements of errors (long runs: a smaller log)
#   ULID_SQLSMITH_SELFTEST_SIGNAL  a check of the check: send this signal (e.g. SEGV, ABRT) to one
#                          fuzzing backend in the first run; the suite must then report the crash
#                          and fail
#   ULID_SQLSMITH_KEEP     a directory to copy the server log and sqlsmith's output into
#
# By hand, after `make install` against the major (the check of the check fails 1 check):
#   ULID_PG_MAJOR=17 ULID_SQLSMITH_SELFTEST_SIGNAL=SEGV bash -c 'source scripts/lib.sh; ulid_virtualenv test/suites/sqlsmith.sh'
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
root="$(cd -- "$here/../.." && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
suite_isolate_env
# shellcheck source-path=SCRIPTDIR source=../lib/cluster.sh
source "$here/../lib/cluster.sh"
suite_exit_on_signals

TOTAL_SECONDS="${ULID_SQLSMITH_SECONDS:-30}"
read -r -a SEEDS <<<"${ULID_SQLSMITH_SEEDS:-1601 random}"
QUERIES="${ULID_SQLSMITH_QUERIES:-}"
CATALOG="${ULID_SQLSMITH_CATALOG:-0}"
LOG_STATEMENTS="${ULID_SQLSMITH_STATEMENTS:-1}"
SELFTEST_SIGNAL="${ULID_SQLSMITH_SELFTEST_SIGNAL:-}"
KEEP="${ULID_SQLSMITH_KEEP:-}"
ROLE=ulid_smith
DB=smith

WORK="$(mktemp -d -t ulid-sqlsmith.XXXXXX)"
chmod 755 "$WORK"
prev_trap="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
# shellcheck disable=SC2064 # expand now, on purpose
trap "rm -rf '$WORK'; $prev_trap" EXIT

((${#SEEDS[@]} > 0)) || {
    bad "ULID_SQLSMITH_SEEDS is empty"
    checks_summary
    exit 1
}
if [[ $TOTAL_SECONDS == 0 && -z $QUERIES ]]; then
    bad "ULID_SQLSMITH_SECONDS=0 needs ULID_SQLSMITH_QUERIES (a run needs a bound)"
    checks_summary
    exit 1
fi
have_sqlsmith() { command -v sqlsmith >/dev/null; }
must "sqlsmith is installed ($(command -v sqlsmith || echo 'missing: apt-get install sqlsmith'))" have_sqlsmith
PER_RUN=$((TOTAL_SECONDS / ${#SEEDS[@]}))
((TOTAL_SECONDS == 0 || PER_RUN > 0)) || PER_RUN=1

q() { cluster_psql smith -d "$DB" -At <<<"$1"; }

# ---------------------------------------------------------------------------------------------
# server: a log that names user and SQLSTATE on every line, error locations, crashed queries whole
cluster_init smith
cluster_conf smith "log_line_prefix = '%m [%p] user=%u sqlstate=%e '" "log_error_verbosity = verbose" \
    "log_min_messages = warning" "track_activity_query_size = 65536" "track_functions = all" \
    "max_connections = 20" "restart_after_crash = on"
if [[ $LOG_STATEMENTS == 0 ]]; then
    cluster_conf smith "log_min_error_statement = panic"
fi
must "server of $("$ULID_PG_BINDIR/postgres" --version) started" cluster_start smith
LOG="$(cluster_log smith)"
version_num="$(cluster_psql smith -d postgres -At <<<"SHOW server_version_num")"

cluster_psql smith -d postgres <<SQL
CREATE ROLE $ROLE LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE DATABASE $DB;
SQL

# ---------------------------------------------------------------------------------------------
# fixture
fixture_sql="
CREATE EXTENSION ulid;
CREATE EXTENSION amcheck;
SET TimeZone = 'UTC';

CREATE TABLE smith_ulid (
    id ulid PRIMARY KEY,
    ref ulid,
    u uuid,
    ids ulid[],
    ts timestamptz,
    label text,
    raw bytea
);
INSERT INTO smith_ulid
SELECT gen_ulid(t.ts),
       CASE WHEN i % 7 = 0 THEN NULL ELSE gen_random_ulid() END,
       CASE WHEN i % 11 = 0 THEN NULL ELSE gen_random_uuid() END,
       CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN '{}'::ulid[]
                  WHEN 2 THEN ARRAY[gen_ulid(t.ts), NULL, ulid_max(t.ts)]
                  ELSE ARRAY[ulid_min(t.ts), gen_random_ulid()] END,
       CASE WHEN i % 13 = 0 THEN NULL ELSE t.ts END,
       CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN lower(gen_ulid(t.ts)::text)
                  ELSE gen_ulid(t.ts)::text END,
       CASE i % 4 WHEN 0 THEN NULL ELSE ulid_to_bytea(gen_ulid(t.ts)) END
FROM generate_series(1, 2000) i,
     LATERAL (SELECT timestamptz '1970-01-01' + (i * i) * interval '19 hours 11 seconds') t(ts);

-- the extremes and the odd: ends of the range, invalid texts, wrong byte lengths, infinities
INSERT INTO smith_ulid (id, ref, u, ids, ts, label, raw) VALUES
    ('00000000000000000000000000', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '00000000-0000-0000-0000-000000000000',
     '{00000000000000000000000000,7ZZZZZZZZZZZZZZZZZZZZZZZZZ,NULL}', '1970-01-01 00:00:00+00',
     '00000000000000000000000000', '\\x00000000000000000000000000000000'),
    ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '00000000000000000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
     '{NULL,NULL}', '10889-08-02 05:31:50.655+00', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
     '\\xffffffffffffffffffffffffffffffff'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAV', NULL, NULL, '{}', '10889-08-02 05:31:50.656+00',
     '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', '\\x'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAW', NULL, '01890a5d-ac96-774b-bcce-b302099a8057', NULL, 'infinity',
     '01arz3ndektsv4rrffq69g5fav', '\\x0102030405060708090a0b0c0d0e0f'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAX', '01ARZ3NDEKTSV4RRFFQ69G5FAX', NULL, NULL, '-infinity',
     '01ARZ3NDEKTSV4RRFFQ69G5FAU', '\\x0102030405060708090a0b0c0d0e0f1011'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAY', NULL, NULL, NULL, '1969-12-31 23:59:59.999+00',
     'OIL0OIL0OIL0OIL0OIL0OIL0OI', '\\x0102'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAZ', NULL, NULL, NULL, '4713-01-01 00:00:00+00 BC',
     '01ARZ3NDEKTSV4RRFFQ69G5FA', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB0', NULL, NULL, NULL, '294276-12-31 23:59:59+00',
     '01ARZ3NDEKTSV4RRFFQ69G5FAV0', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB1', NULL, NULL, NULL, '2000-01-01 00:00:00.0005+00', '', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB2', NULL, NULL, NULL, NULL, ' 01ARZ3NDEKTSV4RRFFQ69G5FAV', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB3', NULL, NULL, NULL, NULL, E'01ARZ3NDEKTSV4RRFFQ69G5F\\u00e9', NULL),
    ('01ARZ3NDEKTSV4RRFFQ69G5FB4', NULL, NULL, NULL, NULL, '01ARZ3NDEKTSV4RRFFQ69G5F-V', NULL);

-- an index for every operator class of the extension here, on every column of smith_ulid of its
-- input type (ulid: id and ref; uuid: u, for the cross-type classes of 0.3.0 on); BRIN with one page
-- per range. Read from the catalog: whatever the major and the release
DO \$\$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT c.opcname, a.amname, att.attname
             FROM pg_catalog.pg_depend d
             JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid'
             JOIN pg_catalog.pg_opclass c ON d.classid = 'pg_catalog.pg_opclass'::pg_catalog.regclass AND c.oid = d.objid
             JOIN pg_catalog.pg_am a ON a.oid = c.opcmethod
             JOIN pg_catalog.pg_attribute att ON att.attrelid = 'smith_ulid'::pg_catalog.regclass
                  AND att.atttypid = c.opcintype AND att.attnum > 0 AND NOT att.attisdropped
             WHERE d.deptype = 'e' ORDER BY 1, 2, 3
    LOOP
        EXECUTE format('CREATE INDEX %I ON smith_ulid USING %I (%I %I)%s',
                       format('smith_ulid_%s_%s_%s', r.attname, r.amname, r.opcname), r.amname, r.attname,
                       r.opcname, CASE WHEN r.amname = 'brin' THEN ' WITH (pages_per_range = 1)' ELSE '' END);
    END LOOP;
END
\$\$;
CREATE INDEX smith_ulid_ids_gin ON smith_ulid USING gin (ids);
CREATE INDEX smith_ulid_ref_ts ON smith_ulid (ref, ts);
CREATE UNIQUE INDEX smith_ulid_u ON smith_ulid (u);
CREATE INDEX smith_ulid_id_text ON smith_ulid ((id::text));
CREATE STATISTICS smith_ulid_stats ON ref, ts, u FROM smith_ulid;

CREATE TABLE smith_uuid (
    key uuid PRIMARY KEY,
    owner ulid REFERENCES smith_ulid (id),
    at timestamptz,
    tags ulid[]
);
INSERT INTO smith_uuid
SELECT id::uuid, CASE WHEN n % 3 = 0 THEN NULL ELSE id END, ts, ids
FROM (SELECT id, ts, ids, row_number() OVER (ORDER BY id) AS n FROM smith_ulid) s WHERE n % 2 = 0;
CREATE INDEX smith_uuid_owner ON smith_uuid USING hash (owner);
CREATE INDEX smith_uuid_at ON smith_uuid USING brin (at) WITH (pages_per_range = 1);

CREATE TABLE smith_range (id ulid NOT NULL, ts timestamptz, note text) PARTITION BY RANGE (id);
CREATE TABLE smith_range_old PARTITION OF smith_range
    FOR VALUES FROM ('00000000000000000000000000') TO ('01BX5ZZKBK0000000000000000');
CREATE TABLE smith_range_new PARTITION OF smith_range
    FOR VALUES FROM ('01BX5ZZKBK0000000000000000') TO ('05000000000000000000000000');
CREATE TABLE smith_range_rest PARTITION OF smith_range DEFAULT;
CREATE INDEX ON smith_range (id);
INSERT INTO smith_range SELECT id, ts, label FROM smith_ulid;

CREATE TABLE smith_hash (id ulid PRIMARY KEY, ref ulid) PARTITION BY HASH (id);
CREATE TABLE smith_hash_0 PARTITION OF smith_hash FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE smith_hash_1 PARTITION OF smith_hash FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE smith_hash_2 PARTITION OF smith_hash FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO smith_hash SELECT id, ref FROM smith_ulid;

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO $ROLE;
ANALYZE;
-- (for the suite, not granted to the fuzzing role) the extension's operator classes and functions
CREATE VIEW ext_member AS SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
    AND e.extname = 'ulid' WHERE d.deptype = 'e';
CREATE VIEW ext_opclass AS SELECT objid FROM ext_member WHERE classid = 'pg_opclass'::regclass;
CREATE VIEW ext_proc AS SELECT objid FROM ext_member WHERE classid = 'pg_proc'::regclass;
SELECT pg_stat_reset(); -- count only the fuzzer's calls of ulid functions
"
make_fixture() { q "$fixture_sql" >/dev/null; }
must "fixture created" make_fixture
fixture="$(q "SELECT (SELECT count(*) FROM smith_ulid) || ' rows in smith_ulid, '
    || (SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        WHERE c.relname IN ('smith_ulid', 'smith_uuid', 'smith_range', 'smith_hash')) || ' indexes ('
    || (SELECT string_agg(DISTINCT a.amname || ' ' || o.opcname, ', ') FROM pg_index i
        JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
        JOIN pg_opclass o ON o.oid = ANY (i.indclass::oid[]) WHERE o.oid IN (SELECT objid FROM ext_opclass)) || ')'")"
note "fixture: $fixture"
# every operator class of the extension is used by an index (a class for a type smith_ulid has no
# column of would need one added)
unindexed="$(q "SELECT coalesce(string_agg(a.amname || ' ' || c.opcname || ' (' || c.opcintype::regtype || ')', ', '), '')
    FROM ext_opclass x JOIN pg_opclass c ON c.oid = x.objid JOIN pg_am a ON a.oid = c.opcmethod
    WHERE NOT EXISTS (SELECT FROM pg_index i WHERE c.oid = ANY (i.indclass::oid[]))")"
expect_str "operator classes of the extension without an index in the fixture (of $(q "SELECT count(*) FROM ext_opclass"))" \
    "${unindexed:-none}" "none"
ext_fns="$(q "SELECT count(*) FROM ext_proc")"

# ulid_calls: "<calls> <functions called>" over the extension's functions, from the statistics
ulid_calls() {
    q "SELECT pg_stat_clear_snapshot();
       SELECT coalesce(sum(s.calls), 0) || ' ' || count(*) FILTER (WHERE s.calls > 0)
       FROM ext_proc x JOIN pg_stat_user_functions s ON s.funcid = x.objid" | tail -n 1
}
# called_set: the extension's functions called so far, one per line
called_set() {
    q "SELECT s.funcid::regprocedure FROM ext_proc x JOIN pg_stat_user_functions s ON s.funcid = x.objid
       WHERE s.calls > 0 ORDER BY 1"
}
# stats_settle: wait until the statistics stop changing (13's collector is asynchronous; 15+
# flushes when the backend exits)
stats_settle() {
    local prev="" cur i
    for i in 1 2 3 4 5 6 7 8 9 10; do
        cur="$(ulid_calls)"
        [[ $cur == "$prev" && $i -gt 2 ]] && break
        prev="$cur"
        sleep 0.5
    done
    printf '%s\n' "$cur"
}

# The extension's own source files: an error whose LOCATION is one of them was raised by ulid
EXT_FILES="$(find "$root/src" -name '*.cpp' -printf '%f\n' | sort -u | paste -sd'|' | sed 's/[.]/[.]/g')"

# scan_log FROM_BYTE: summary of the server log from byte FROM_BYTE on:
#   "crash <line>"       for every line that shows a crash (a signal, an abnormal exit code, TRAP,
#                        PANIC, crash recovery) and the query a crashed backend was running
#   "class <XX> <n>"     statements of ROLE ending in errors, by SQLSTATE class
#   "ext <SQLSTATE> <n>" of those, raised by the extension's code
#   "extmsg <SQLSTATE> <message>"  one line per distinct message of an XX error the extension raised
#   "warn <line>"        a WARNING of a resource leak (relcache, buffer, snapshot, ...; "resource was
#                        not closed" on 17+) or of damaged memory (the memory-context checks of an
#                        assertion-enabled build: "problem in alloc set ...", "detected write past
#                        chunk end ...")
#   "fatal <n>"          FATAL lines of ROLE (e.g. a backend ended by an administrator command)
scan_log() {
    tail -c +"$(($1 + 1))" "$LOG" | awk -v role="$ROLE" -v extfiles="$EXT_FILES" '
        BEGIN { st = "[0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z]"; prefix = " user=[^ ]* sqlstate=" st " [A-Z]+:" }
        /TRAP:|ExceptionalCondition/ { print "crash " $0; next }
        /terminated by signal|terminated by exception|PANIC:|terminating any other active server processes|all server processes terminated|automatic recovery in progress|was interrupted; last known up/ {
            print "crash " $0; want_query = 1; next
        }
        /exited with exit code [0-9]+/ {
            match($0, /exited with exit code [0-9]+/)
            if (substr($0, RSTART + 22, RLENGTH - 22) + 0 > 1) { print "crash " $0; want_query = 1 }
            next
        }
        /WARNING: .*(leak|resource was not closed|problem in (alloc set|Generation|slab|Bump)|detected write past chunk end)/ {
            print "warn " $0; next
        }
        want_query && /Failed process was running:/ { print "crash " $0; want_query = 0; in_query = 1; next }
        in_query && !match($0, prefix) { print "crash " $0; next } # further lines of the query
        { in_query = 0 }
        match($0, prefix) {
            split(substr($0, RSTART + 1, RLENGTH - 1), f, " ")
            user = substr(f[1], 6); state = substr(f[2], 10); level = f[3]
            if (user != role) next
            pid = substr($0, index($0, "[")); pid = substr(pid, 1, index(pid, "]"))
            if (level == "ERROR:") {
                classes[substr(state, 1, 2)]++
                pending[pid] = state
                m = $0
                sub(".* ERROR:  " st ": ", "", m)
                msg[pid] = m
            } else if (level == "FATAL:") {
                fatal++
            } else if (level == "LOCATION:" && (pid in pending)) {
                if ($0 ~ (", (" extfiles "):[0-9]+$")) {
                    ext[pending[pid]]++
                    if (pending[pid] ~ /^XX/) extmsg[pending[pid] " " msg[pid]]++
                }
                delete pending[pid]
            }
        }
        END {
            for (c in classes) print "class " c " " classes[c]
            for (s in ext) print "ext " s " " ext[s]
            for (m in extmsg) print "extmsg " m
            print "fatal " fatal + 0
        }'
}

# listing COUNTS: "key: n, ..." of an associative array (its name), largest n first
listing() {
    local -n counts="$1"
    local key
    for key in "${!counts[@]}"; do printf '%s %s\n' "${counts[$key]}" "$key"; done |
        sort -k1,1nr | awk '{ printf "%s%s: %s", sep, $2, $1; sep = ", " }'
}

# tally KIND TOTALS SCAN: the "KIND <key> <n>" lines of SCAN (scan_log's output) as TALLY_SUM (the
# sum) and TALLY_LIST ("key: n, ...", largest first), each n also added to TOTALS[key] (TOTALS: the
# name of an associative array)
tally() {
    local -n totals="$2"
    local key n
    TALLY_SUM=0 TALLY_LIST=""
    while read -r _ key n; do
        TALLY_SUM=$((TALLY_SUM + n))
        TALLY_LIST+="${TALLY_LIST:+, }$key: $n"
        totals["$key"]=$((${totals["$key"]:-0} + n))
    done < <(grep "^$1 " "$3" | sort -k3,3nr)
}

# ---------------------------------------------------------------------------------------------
# the runs
conn="host=127.0.0.1 port=$(cluster_port smith) user=$ROLE dbname=$DB"
opts=(--verbose "--target=$conn")
[[ $CATALOG == 1 ]] || opts+=(--exclude-catalog)
[[ -z $QUERIES ]] || opts+=("--max-queries=$QUERIES")
note "sqlsmith $(dpkg-query -W -f='${Version}' sqlsmith 2>/dev/null || echo '?'), options ${opts[*]/--target=*/--target=<$ROLE@$DB>}; $(
    ((TOTAL_SECONDS > 0)) && echo "${PER_RUN} s per seed" || echo "no time bound")${QUERIES:+, at most $QUERIES queries per seed}"

T_QUERIES=0 T_ERRORS=0 T_CRASHES=0 T_EXT=0 T_SECONDS=0 T_CALLS=0
declare -A T_CLASS=() T_EXTSTATE=()
calls_before="$(stats_settle)"
run=0
for seed in "${SEEDS[@]}"; do
    run=$((run + 1))
    kind=fixed
    if [[ $seed == random ]]; then
        seed=$(((RANDOM << 15 | RANDOM) % 2000000000))
        kind=random
    fi
    [[ $seed =~ ^[0-9]+$ ]] || {
        bad "seed '$seed' is not a number"
        continue
    }
    label="seed $seed ($kind)"
    offset="$(stat -c %s "$LOG")"
    limit=()
    if ((TOTAL_SECONDS > 0)); then
        limit=(timeout -s INT -k 10 "$PER_RUN")
    elif [[ -n $QUERIES ]]; then
        limit=(timeout -s INT -k 10 $((QUERIES / 2 + 600))) # a safety bound only (80 queries/s is usual)
    fi
    note "$label: running"
    t0=$SECONDS
    if [[ -n $SELFTEST_SIGNAL && $run == 1 ]]; then
        (
            sleep 3
            pid="$(cluster_psql smith -d postgres -At <<<"SELECT pid FROM pg_stat_activity
                WHERE usename = '$ROLE' AND application_name LIKE 'sqlsmith%' LIMIT 1")"
            note "self-test: kill -$SELFTEST_SIGNAL ${pid:-<no backend found>}"
            [[ -z $pid ]] || _cluster_as_owner kill -s "$SELFTEST_SIGNAL" "$pid"
        ) &
    fi
    rc=0
    "${limit[@]}" sqlsmith "${opts[@]}" "--seed=$seed" >"$WORK/run$run.out" 2>"$WORK/run$run.err" </dev/null || rc=$?
    # (exit 0: --max-queries reached; 124: stopped by the time bound's SIGINT, after its report)
    secs=$((SECONDS - t0))
    wait
    calls_after="$(stats_settle)"
    queries="$(sed -nE 's/^queries: ([0-9]+)$/\1/p' "$WORK/run$run.err" | tail -n 1)"
    if [[ -n $queries && ($rc == 0 || $rc == 124) ]]; then
        ok "$label: sqlsmith ran $queries queries in $secs s (exit $rc)"
    else
        bad "$label: sqlsmith did not report a query count (exit $rc); its last lines:"
        tail -n 15 "$WORK/run$run.err" | sed 's/^/#     /'
        queries=0
    fi
    scan_log "$offset" >"$WORK/run$run.scan"
    crashes="$(grep -c '^crash .*\(terminated by signal\|terminated by exception\|exited with exit code\)' "$WORK/run$run.scan" || true)"
    recoveries="$(grep -c '^crash .*terminating any other active server processes' "$WORK/run$run.scan" || true)"
    if grep -q '^crash ' "$WORK/run$run.scan"; then
        bad "$label: the server log shows a crash ($crashes backend(s) ended abnormally, $recoveries crash restart(s)):"
        sed -n 's/^crash /#     /p' "$WORK/run$run.scan" | cut -c 1-2000
        ((crashes > 0)) || crashes=1
    else
        ok "$label: no crash in the server log (no backend ended by a signal or an assertion, no crash recovery)"
    fi
    tally class T_CLASS "$WORK/run$run.scan"
    errors=$TALLY_SUM classes=$TALLY_LIST
    tally ext T_EXTSTATE "$WORK/run$run.scan"
    ext=$TALLY_SUM extstates=$TALLY_LIST
    fatal="$(sed -n 's/^fatal //p' "$WORK/run$run.scan")"
    if grep -q '^warn ' "$WORK/run$run.scan"; then
        bad "$label: the server log shows leaks or damaged memory:"
        sed -n 's/^warn .* WARNING:  /WARNING:  /p' "$WORK/run$run.scan" | sort | uniq -c | sort -rn | head -n 20 | sed 's/^/#   /' | cut -c 1-2000
    else
        ok "$label: no leak warning and no memory-context check failure in the server log"
    fi
    xx="$(grep -c '^extmsg XX' "$WORK/run$run.scan" || true)"
    if ((xx == 0)); then
        ok "$label: no internal error (class XX) raised by the extension"
    else
        bad "$label: internal errors raised by the extension:"
        sed -n 's/^extmsg /#     /p' "$WORK/run$run.scan"
    fi
    read -r c0 _ <<<"$calls_before"
    read -r c1 fns <<<"$calls_after"
    ((c1 >= c0)) || c0=0 # crash recovery resets the statistics
    calls=$((c1 - c0))
    T_CALLS=$((T_CALLS + calls))
    calls_before="$calls_after"
    note "$label: $queries queries, $errors statements ending in errors (by SQLSTATE class: ${classes:-none}; raised by ulid: $ext${extstates:+ — $extstates}), ${fatal:-0} FATAL, $crashes crashes, $secs s; $calls calls of ulid functions ($fns of the extension's $ext_fns functions called in all runs so far)"
    T_QUERIES=$((T_QUERIES + queries)) T_ERRORS=$((T_ERRORS + errors)) T_CRASHES=$((T_CRASHES + crashes))
    T_EXT=$((T_EXT + ext)) T_SECONDS=$((T_SECONDS + secs))
done

# ---------------------------------------------------------------------------------------------
# after all runs
answers() { [[ $(q "SELECT 1") == 1 ]]; }
must "the server still answers" answers
# (an index that fails raises an error; the count is of the indexes checked)
amcheck="$(q "SELECT count(*) FROM (SELECT bt_index_check(c.oid, true)
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
    JOIN pg_class t ON t.oid = i.indrelid
    WHERE a.amname = 'btree' AND c.relkind = 'i' AND t.relname LIKE 'smith%') x" 2>&1)" || true
if [[ $amcheck =~ ^[0-9]+$ ]] && ((amcheck > 0)); then
    ok "bt_index_check(heapallindexed) passes on all $amcheck btree indexes of the fixture"
else
    bad "bt_index_check on the fixture's btree indexes: $amcheck"
fi
called="$(called_set)"
if ((T_CALLS > 0)); then
    ok "ulid functions were called by the fuzzed queries: $T_CALLS calls of $(grep -c . <<<"$called") of the extension's $ext_fns functions"
else
    bad "no ulid function was called by the fuzzed queries (pg_stat_user_functions)"
fi
note "called at least once: $(paste -sd' ' <<<"$called")"
classes="$(listing T_CLASS)"
extstates="$(listing T_EXTSTATE)"
note "total on PostgreSQL $(q "SHOW server_version") ($version_num): ${#SEEDS[@]} run(s), $T_QUERIES queries, $T_ERRORS statements ending in errors (by SQLSTATE class: ${classes:-none}; raised by ulid: $T_EXT${extstates:+ — $extstates}), $T_CRASHES crashes, $T_SECONDS s"
if [[ -n $KEEP ]]; then
    mkdir -p "$KEEP"
    cp "$LOG" "$KEEP/server.log"
    cp "$WORK"/run*.err "$WORK"/run*.scan "$KEEP/" 2>/dev/null || true
    note "server log and sqlsmith output kept in $KEEP"
fi
note "the suite took $SECONDS s"
checks_summary
