#!/usr/bin/env bash
# Logical replication of ulid columns between two servers of its own (test/lib/cluster.sh).
#
# The publisher (wal_level = logical) publishes two tables: docs (ulid primary key with DEFAULT
# gen_ulid(), a nullable ulid, a ulid[] with NULL elements, ...) and notes (no key, REPLICA IDENTITY
# FULL, so the subscriber finds rows by comparing every column, ulid and ulid[] included). The
# subscriber server has two databases, each with one subscription to the same publication: sub_text
# (the default text mode) and sub_bin (binary = true: ulid_send/ulid_recv and array_send/array_recv
# on the wire). Checks:
#   - the initial table sync copies the rows that were there before the subscription;
#   - then inserts, updates by ulid key (one-row, by key range, one that changes the key itself) and
#     deletes by ulid key arrive; notes are updated and deleted through their full-row identity;
#   - after each phase both subscriber databases hold exactly the publisher's rows: the text COPY and
#     the binary COPY of every table are byte-identical on all three, and the count is the same;
#   - no apply or sync errors (pg_stat_subscription_stats, 15+; the subscriber's log), and amcheck
#     passes on the subscribers' primary keys.
# Before PostgreSQL 14 subscriptions have no binary mode: sub_text only, and the refusal is checked.
# Waiting for replication is bounded (ULID_REPL_WAIT seconds, default 90): a limit, not an assertion.
# Prints one line per check, exits non-zero on any violation.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/cluster.sh
source test/lib/checks.sh
suite_isolate_env
suite_exit_on_signals

WAIT="${ULID_REPL_WAIT:-90}"
SUBS=(sub_text sub_bin) # the subscriber's databases, each with a subscription of the same name

# q NODE DB SQL: one query, unaligned tuples-only output
q() { cluster_psql "$1" -d "$2" -At <<<"$3"; }

TABLES_SQL='
CREATE TABLE docs (
    id        ulid PRIMARY KEY DEFAULT gen_ulid(),
    parent_id ulid,
    tags      ulid[] NOT NULL DEFAULT '"'{}'"',
    created   timestamptz NOT NULL,
    body      text
);
CREATE TABLE notes (ref ulid NOT NULL, refs ulid[], body text NOT NULL);
ALTER TABLE notes REPLICA IDENTITY FULL;'

echo "# setup: publisher + subscriber on 127.0.0.1"
must "start publisher (wal_level = logical)" eval \
    "cluster_init pub --no-sync && cluster_conf pub 'wal_level = logical' && cluster_start pub"
must "start subscriber" eval \
    "cluster_init sub --no-sync && cluster_conf sub 'wal_retrieve_retry_interval = 200ms' && cluster_start sub"
note "$(q pub postgres 'SELECT version()')"
PGNUM="$(q pub postgres 'SHOW server_version_num')"
if ((PGNUM < 140000)); then
    SUBS=(sub_text)
    note "subscriptions have no binary mode before PostgreSQL 14: sub_text only (the error is checked below)"
fi
must "publisher: extension ulid, tables docs and notes" q pub postgres "CREATE EXTENSION ulid; $TABLES_SQL"
for db in "${SUBS[@]}"; do
    must "subscriber: database $db with extension ulid, amcheck and the same tables" eval \
        "q sub postgres 'CREATE DATABASE $db' &&
         q sub $db \"CREATE EXTENSION ulid; CREATE EXTENSION amcheck; \$TABLES_SQL\""
done

# rows_sql N LABEL: N new docs rows (ids from the DEFAULT), with NULLs and NULL array elements
rows_sql() {
    echo "INSERT INTO docs (parent_id, tags, created, body)
          SELECT CASE WHEN g % 5 = 0 THEN NULL
                      ELSE gen_ulid(timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute') END,
                 CASE WHEN g % 7 = 0 THEN ARRAY[NULL::ulid, gen_random_ulid()]
                      ELSE ARRAY(SELECT gen_random_ulid() FROM generate_series(1, g % 4)) END,
                 clock_timestamp(), '$2 ' || g
          FROM generate_series(1, $1) g"
}
must "publisher: 2000 docs rows and 200 notes rows before the subscriptions exist" q pub postgres "
    $(rows_sql 2000 initial);
    INSERT INTO notes SELECT gen_random_ulid(), ARRAY[gen_random_ulid(), NULL, gen_random_ulid()], 'note ' || g
    FROM generate_series(1, 200) g"
# the statements of docs/scaling-out.md (test/suites/recipes/logical_replication.sql), each on its
# node, with this run's host and port for the publisher
RECIPE=test/suites/recipes/logical_replication.sql
CONN="host=127.0.0.1 port=$(cluster_port pub) dbname=postgres user=postgres"
statement() { # statement PREFIX: the recipe's line that starts with PREFIX, with this run's publisher
    grep -m1 "^$1" "$RECIPE" | sed "s/host=publisher.example port=5432 dbname=postgres user=postgres/$CONN/"
}
expect "recipe: one CREATE PUBLICATION and two CREATE SUBSCRIPTION lines" "$(grep -c '^CREATE \(PUBLICATION\|SUBSCRIPTION\) ' "$RECIPE")" -eq 3
must "publisher: $(statement 'CREATE PUBLICATION ')" q pub postgres "$(statement 'CREATE PUBLICATION ')"
must "subscriber: CREATE SUBSCRIPTION sub_text (default text mode), from the recipe" \
    q sub sub_text "$(statement 'CREATE SUBSCRIPTION sub_text ')"
if ((PGNUM >= 140000)); then
    must "subscriber: CREATE SUBSCRIPTION sub_bin WITH (binary = true), from the recipe" \
        q sub sub_bin "$(statement 'CREATE SUBSCRIPTION sub_bin ')"
    expect_str "pg_subscription.subbinary of sub_text, sub_bin" \
        "$(q sub postgres "SELECT string_agg(subname || '=' || subbinary, ' ' ORDER BY subname DESC) FROM pg_subscription")" \
        "sub_text=false sub_bin=true"
else # tried on the publisher's server, whose log is not checked for errors
    expect_contains "before 14: WITH (binary = true) is refused" \
        "$(q pub postgres "CREATE SUBSCRIPTION sub_bin CONNECTION '$CONN' PUBLICATION pub WITH (binary = true, connect = false)" 2>&1)" \
        'unrecognized subscription parameter: "binary"'
fi

# digest NODE DB TABLE FORMAT: md5 of COPY (the table in key order) TO STDOUT, preceded by the
# row count for the text format. A binary COPY of an array holds its element type's OID, which
# differs between databases for an extension's type: the binary form compares every ulid[] as an
# array of the elements' 16 bytes (ulid_send) instead.
digest() {
    local order=id cols='*'
    [[ $3 == notes ]] && order='ref, body'
    if [[ $4 == binary ]]; then
        cols='id, parent_id, ARRAY(SELECT ulid_send(e) FROM unnest(tags) e) AS tags, created, body'
        [[ $3 == notes ]] && cols='ref, ARRAY(SELECT ulid_send(e) FROM unnest(refs) e) AS refs, body'
    fi
    local copy="COPY (SELECT $cols FROM $3 ORDER BY $order) TO STDOUT (FORMAT $4)" out
    if [[ $4 == text ]]; then
        out="$(cluster_psql "$1" -d "$2" -c "$copy")" || return
        printf '%s %s\n' "$(printf '%s' "$out" | grep -c '')" "$(printf '%s' "$out" | md5sum | cut -d' ' -f1)"
    else
        cluster_psql "$1" -d "$2" -c "$copy" | md5sum | cut -d' ' -f1
    fi
}

# wait_same PHASE: until the text COPY of every subscriber table equals the publisher's (or WAIT s);
# then report that comparison and compare the binary COPY as well
wait_same() {
    local phase="$1" start=$SECONDS db t fmt want got all
    while :; do
        all=1
        for t in docs notes; do
            want="$(digest pub postgres "$t" text)"
            for db in "${SUBS[@]}"; do
                got="$(digest sub "$db" "$t" text)"
                [[ $got == "$want" ]] || all=0
            done
        done
        ((all || SECONDS - start >= WAIT)) && break
        sleep 0.5
    done
    note "$phase: compared after $((SECONDS - start)) s of waiting"
    for t in docs notes; do
        for fmt in text binary; do
            want="$(digest pub postgres "$t" "$fmt")"
            for db in "${SUBS[@]}"; do
                got="$(digest sub "$db" "$t" "$fmt")"
                if [[ -n $got && $got == "$want" ]]; then
                    if [[ $fmt == text ]]; then
                        ok "$phase: $db.$t identical to the publisher's (COPY text, ${got%% *} rows)"
                    else
                        ok "$phase: $db.$t identical to the publisher's (COPY binary, ulid[] as 16-byte elements)"
                    fi
                else
                    bad "$phase: $db.$t differs from the publisher's (COPY $fmt): [$got] vs [$want]"
                fi
            done
        done
    done
}

echo
echo "# initial table sync"
wait_same "initial sync"
# A table whose copy is done passes through 'syncdone' to 'ready' once the apply worker has caught
# up with it, which can come a moment after its rows are already all there: wait for it (WAIT s).
for db in "${SUBS[@]}"; do
    start=$SECONDS
    while :; do
        notready="$(q sub "$db" "SELECT count(*) FROM pg_subscription_rel WHERE srsubstate <> 'r'")"
        [[ $notready == 0 ]] || ((SECONDS - start >= WAIT)) && break
        sleep 0.5
    done
    expect "initial sync: $db tables not in state ready" "$notready" -eq 0
done

echo
echo "# inserts, updates and deletes by ulid key on the publisher"
mapfile -t KEYS < <(q pub postgres "SELECT id FROM docs ORDER BY id OFFSET 100 LIMIT 12")
UPD=("${KEYS[@]:0:5}")
DEL=("${KEYS[@]:5:5}")
MOVED="${KEYS[10]}"
RANGE_LO="${KEYS[11]}"
RANGE_HI="$(q pub postgres "SELECT id FROM docs ORDER BY id OFFSET 400 LIMIT 1")"
dml="$(rows_sql 1000 new)"
for k in "${UPD[@]}"; do
    dml+="; UPDATE docs SET body = body || ' (edited)', tags = tags || gen_ulid(), parent_id = '$MOVED' WHERE id = '$k'"
done
for k in "${DEL[@]}"; do dml+="; DELETE FROM docs WHERE id = '$k'"; done
must "publisher: 1000 inserts, 5 one-row updates and 5 one-row deletes by id" q pub postgres "$dml"
NEW_ID="$(q pub postgres "UPDATE docs SET id = gen_ulid() WHERE id = '$MOVED' RETURNING id")"
expect_match "publisher: an update of the key itself ($MOVED -> $NEW_ID)" "$NEW_ID" '^[0-7][0-9A-Z]{25}$'
must "publisher: update 289 rows by key range, delete the 100 highest new keys, update and delete notes by ulid" \
    q pub postgres "
    UPDATE docs SET tags = '{}', body = NULL WHERE id >= '$RANGE_LO' AND id < '$RANGE_HI';
    DELETE FROM docs WHERE id IN (SELECT id FROM docs WHERE body LIKE 'new %' ORDER BY id DESC LIMIT 100);
    UPDATE notes SET body = body || ' (edited)', refs = refs || gen_random_ulid()
        WHERE ref IN (SELECT ref FROM notes ORDER BY ref LIMIT 20);
    DELETE FROM notes WHERE ref IN (SELECT ref FROM notes ORDER BY ref DESC LIMIT 20)"
expect "publisher: docs rows now" "$(q pub postgres 'SELECT count(*) FROM docs')" -eq $((2000 + 1000 - 5 - 100))
wait_same "after DML"
in_list() { local IFS=,; printf "'%s'," "$@" | sed 's/,$//'; }
for db in "${SUBS[@]}"; do
    expect "$db: updated rows carrying the edit (of 5)" \
        "$(q sub "$db" "SELECT count(*) FROM docs WHERE id IN ($(in_list "${UPD[@]}"))
                        AND body LIKE '% (edited)' AND parent_id = '$MOVED'")" -eq 5
    expect "$db: deleted keys still present (of 5)" \
        "$(q sub "$db" "SELECT count(*) FROM docs WHERE id IN ($(in_list "${DEL[@]}"))")" -eq 0
    expect_str "$db: the moved row is under its new key only" \
        "$(q sub "$db" "SELECT string_agg(id::text, ',') FROM docs WHERE id IN ('$MOVED', '$NEW_ID')")" "$NEW_ID"
    expect "$db: notes carrying the edit" "$(q sub "$db" "SELECT count(*) FROM notes WHERE body LIKE '% (edited)'")" -eq 20
    if ((PGNUM >= 150000)); then # (before 15 only the subscriber's log, checked below, tells)
        # every *error_count column (19 splits sync_error_count into tables' and sequences')
        stats="$(q sub "$db" "SELECT sum(e.value::bigint) FROM pg_stat_subscription_stats s, jsonb_each_text(to_jsonb(s)) e
                            WHERE e.key LIKE '%error_count' AND s.subname = '$db'")"
        expect "$db: apply and sync errors (pg_stat_subscription_stats)" "$stats" -eq 0
    fi
    if q sub "$db" "SELECT bt_index_check('docs_pkey', true)" >/dev/null; then
        ok "$db: bt_index_check(docs_pkey, heapallindexed) passes"
    else
        bad "$db: bt_index_check(docs_pkey, heapallindexed)"
    fi
done
if grep -E 'ERROR|FATAL' "$(cluster_log sub)" >/dev/null; then
    bad "subscriber log has errors:"
    grep -E 'ERROR|FATAL' "$(cluster_log sub)" | head -20 | sed 's/^/#   /'
else
    ok "subscriber log has no ERROR or FATAL line"
fi

checks_summary
