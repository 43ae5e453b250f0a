#!/usr/bin/env bash
# Concurrency suite: many backends generating ULIDs at once on a real server (pgbench).
#
# Round 1, gen_ulid() (the monotonic per-backend generator, also as the column DEFAULT):
#   pgbench ran without failed transactions, rows were written by every client, no duplicate id,
#   within each backend the ids are strictly increasing in insertion order (seq), and amcheck's
#   bt_index_parent_check (with heapallindexed) passes on the primary key.
# Round 2, gen_random_ulid(), with a hash and a BRIN index on id as well:
#   the same, except monotonicity (it makes no such promise); plus every row is found through the
#   hash index and through the BRIN index.
#
# Needs the PG* environment of a server where the ulid extension is installed (scripts/test runs it
# inside pg_virtualenv, in a database of its own) and a superuser (for amcheck). Prints one line per
# check, exits non-zero on any violation. ULID_CONC_SECONDS (default 10) is pgbench's -T per round.
set -euo pipefail

bindir="$("${PG_CONFIG:-pg_config}" --bindir)" # the major under test (ulid_virtualenv sets PG_CONFIG)
PSQL=("$bindir/psql" -X -v ON_ERROR_STOP=1 -qAt)
PGBENCH="$bindir/pgbench"
DURATION="${ULID_CONC_SECONDS:-10}"
CLIENTS=8
THREADS=2
BATCH=25 # rows per INSERT; each pgbench transaction runs two INSERTs

WORK="$(mktemp -d -t ulid-conc.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# shellcheck source=test/lib/checks.sh
source "$(dirname -- "$0")/../lib/checks.sh"

q() { "${PSQL[@]}" <<<"$1"; }

setup() {
    echo "# setup: database ${PGDATABASE:-?} on ${PGHOST:-?}:${PGPORT:-?}"
    if q "CREATE EXTENSION IF NOT EXISTS ulid; CREATE EXTENSION IF NOT EXISTS amcheck;"; then
        ok "extensions ulid and amcheck available"
    else
        bad "CREATE EXTENSION ulid / amcheck"
        return 1
    fi
    echo "# ulid $(q "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"), $(q 'SELECT version()')"
}

# round LABEL TABLE GENERATOR MONOTONIC(0/1) EXTRA_INDEXES(0/1)
round() {
    local label="$1" t="$2" gen="$3" monotonic="$4" extra="$5" script out rc failed
    echo
    echo "# round $label: table $t, id DEFAULT $gen, $CLIENTS clients x ${DURATION}s, $THREADS threads"
    if ! q "SET client_min_messages = warning;
            DROP TABLE IF EXISTS $t;
            CREATE TABLE $t (seq bigserial, pid int DEFAULT pg_backend_pid(),
                             id ulid PRIMARY KEY DEFAULT $gen);"; then
        bad "$label: create table $t"
        return 0
    fi
    if ((extra)); then
        if q "CREATE INDEX ${t}_id_hash ON $t USING hash (id);
              CREATE INDEX ${t}_id_brin ON $t USING brin (id) WITH (pages_per_range = 8);"; then
            ok "$label: hash and BRIN indexes on id created"
        else
            bad "$label: create hash / BRIN index on $t"
        fi
    fi

    # one INSERT naming the generator, one taking the column DEFAULT: both make the key in the backend
    script="$WORK/$t.sql"
    cat >"$script" <<SQL
INSERT INTO $t (id) SELECT $gen FROM generate_series(1, $BATCH);
INSERT INTO $t (pid) SELECT pg_backend_pid() FROM generate_series(1, $BATCH);
SQL
    out="$WORK/$t.pgbench.out"
    rc=0
    "$PGBENCH" -n -c "$CLIENTS" -j "$THREADS" -T "$DURATION" -f "$script" >"$out" 2>&1 || rc=$?
    sed 's/^/#   pgbench: /' "$out"
    if ((rc == 0)); then ok "$label: pgbench exit status 0"; else bad "$label: pgbench exit status $rc"; fi
    expect "$label: pgbench transactions processed" \
        "$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$out")" -gt 0
    failed="$(sed -nE 's/^number of failed transactions: ([0-9]+).*/\1/p' "$out")"
    if [[ -n $failed ]]; then
        expect "$label: pgbench failed transactions" "$failed" -eq 0
    else # pgbench before 15 has no such count: a failed transaction aborts its client (checked below)
        note "$label: this pgbench counts no failed transactions; its exit status and aborted clients tell"
    fi
    if grep -q 'aborted' "$out"; then bad "$label: a pgbench client aborted (see above)"; fi

    local total
    total="$(q "SELECT count(*) FROM $t")" || total=""
    expect "$label: total rows" "$total" -gt 0
    expect "$label: backends that inserted" "$(q "SELECT count(DISTINCT pid) FROM $t")" -eq "$CLIENTS"
    expect "$label: duplicate ids" "$(q "SELECT count(*) - count(DISTINCT id) FROM $t")" -eq 0
    if ((monotonic)); then
        expect "$label: per-backend monotonicity violations (id <= previous id of that backend)" \
            "$(q "SELECT count(*) FROM (
                      SELECT id, lag(id) OVER (PARTITION BY pid ORDER BY seq) AS prev FROM $t
                  ) s WHERE prev IS NOT NULL AND NOT (id > prev)")" -eq 0
    fi
    if q "SELECT bt_index_parent_check('${t}_pkey'::regclass, true)" >/dev/null; then
        ok "$label: bt_index_parent_check(${t}_pkey, heapallindexed) passes"
    else
        bad "$label: bt_index_parent_check(${t}_pkey, heapallindexed)"
    fi
    if ((extra)); then
        # With the primary key out of the way (rolled back), the planner can only reach rows through
        # the hash index (equality) and the BRIN index (range); every row counted above (plain plan)
        # must be found both ways.
        local found via_hash via_brin
        found="$(q "BEGIN;
                    ALTER TABLE $t DROP CONSTRAINT ${t}_pkey;
                    SET LOCAL enable_seqscan = off;
                    SET LOCAL enable_hashjoin = off;
                    SET LOCAL enable_mergejoin = off;
                    SELECT (SELECT count(*) FROM $t a WHERE EXISTS (SELECT FROM $t b WHERE b.id = a.id))
                           || ' ' ||
                           (SELECT count(*) FROM $t WHERE id BETWEEN (SELECT min(id) FROM $t)
                                                               AND (SELECT max(id) FROM $t));
                    ROLLBACK;")" || found=""
        read -r via_hash via_brin <<<"${found:-x x}"
        expect "$label: rows found through the hash index (of $total)" "$via_hash" -eq "${total:-0}"
        expect "$label: rows found through the BRIN index (of $total)" "$via_brin" -eq "${total:-0}"
    fi
}

if setup; then
    round gen_ulid conc_gen_ulid 'gen_ulid()' 1 0
    round gen_random_ulid conc_gen_random_ulid 'gen_random_ulid()' 0 1
fi

echo
checks_summary
