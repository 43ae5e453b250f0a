#!/usr/bin/env bash
# Dump/restore suite: pg_dump -Fc | pg_restore and pg_dump | psql keep every ulid value, default,
# index and partition.
#
# The source database (the suite's own PGDATABASE) gets the extension in a schema of its own
# (ulidx, not on the restore's search_path, so every reference in the dump must be qualified) and:
#   app.events: id ulid PRIMARY KEY DEFAULT gen_ulid(), a nullable ulid with a btree index, a ulid[]
#     column, a DEFAULT gen_ulid(timestamptz) column, a DEFAULT gen_random_ulid() column with a
#     unique btree, bloom and minmax-multi BRIN indexes, a generated column
#     ulid_to_timestamp(id), an expression index, a CHECK constraint, a hash and a minmax BRIN
#     index on id, edge values (the smallest/largest ULID, NULLs, empty arrays, NULL elements);
#   app.shards: PARTITION BY HASH (id) with 4 partitions, DEFAULT gen_random_ulid(), a hash index;
#   app.links: a composite ulid key with a foreign key to events, a domain over ulid, a view.
# It is copied with pg_dump -Fc + pg_restore (database ..._fc) and with pg_dump | psql (..._sql).
# Checks, for each copy: the restore ran without an error; schema-only dumps are identical to the
# source's; every table's rows are identical (md5 of COPY text ordered by key, the partition of
# each row included; also COPY BINARY for events); every row sits in the partition its hash
# selects (satisfies_hash_partition); every index is valid; amcheck bt_index_parent_check
# (heapallindexed) on every btree index; every row found through the hash indexes; BRIN scans
# find every row; the column defaults still work after the restore.
#
# Needs the PG* environment of a server with the ulid extension installed and a superuser; creates
# and drops two databases next to PGDATABASE. Prints one line per check, exits non-zero on any
# violation.
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"

bindir="$("${PG_CONFIG:-pg_config}" --bindir)" # the major under test (ulid_virtualenv sets PG_CONFIG)
SRC="${PGDATABASE:?PGDATABASE must name the suite database}"
DB_FC="${SRC}_fc"
DB_SQL="${SRC}_sql"
ROWS=20000

WORK="$(mktemp -d -t ulid-dump.XXXXXX)"
cleanup() {
    "$bindir/psql" -X -q -d postgres -c 'SET client_min_messages = warning' \
        -c "DROP DATABASE IF EXISTS \"$DB_FC\"" -c "DROP DATABASE IF EXISTS \"$DB_SQL\"" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# q DB SQL: one value (or rows) from DB; the checks' own queries see the extension's schema
q() { PGOPTIONS="-c search_path=app,ulidx,public -c client_min_messages=warning" "$bindir/psql" -X -qAt -v ON_ERROR_STOP=1 -d "$1" <<<"$2"; }

echo "# source database $SRC on ${PGHOST:-?}:${PGPORT:-?}"
cat >"$WORK/schema.sql" <<'SQL'
SET client_min_messages = warning;
CREATE SCHEMA ulidx;
CREATE EXTENSION IF NOT EXISTS ulid SCHEMA ulidx;
CREATE EXTENSION IF NOT EXISTS amcheck;
CREATE SCHEMA app;
SET search_path = app, ulidx, public;

CREATE DOMAIN app.order_id AS ulid CHECK (VALUE > '00000000000000000000000000');

CREATE TABLE app.events (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    parent ulid,
    refs ulid[] NOT NULL DEFAULT '{}',
    backfill ulid DEFAULT gen_ulid('2001-02-03 04:05:06.789+00'),
    random_id ulid NOT NULL DEFAULT gen_random_ulid(),
    created timestamptz GENERATED ALWAYS AS (ulid_to_timestamp(id)) STORED,
    as_uuid uuid,
    note text,
    CONSTRAINT events_id_not_zero CHECK (id <> '00000000000000000000000000'::ulid)
);
CREATE INDEX events_parent ON app.events (parent);
CREATE UNIQUE INDEX events_random_id ON app.events (random_id);
CREATE INDEX events_created ON app.events (ulid_to_timestamp(id));
CREATE INDEX events_id_hash ON app.events USING hash (id);
CREATE INDEX events_id_brin ON app.events USING brin (id) WITH (pages_per_range = 2);
SELECT current_setting('server_version_num')::int >= 140000 AS brin_multi_bloom \gset
\if :brin_multi_bloom
CREATE INDEX events_random_bloom ON app.events USING brin (random_id ulid_bloom_ops);
CREATE INDEX events_random_multi ON app.events USING brin (random_id ulid_minmax_multi_ops);
\else
-- PostgreSQL 13 has no minmax-multi or bloom BRIN: a minmax one on random_id stands in
CREATE INDEX events_random_minmax ON app.events USING brin (random_id);
\endif

CREATE TABLE app.shards (
    id ulid NOT NULL DEFAULT gen_random_ulid(),
    n int NOT NULL,
    PRIMARY KEY (id)
) PARTITION BY HASH (id);
CREATE TABLE app.shards_0 PARTITION OF app.shards FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE app.shards_1 PARTITION OF app.shards FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE app.shards_2 PARTITION OF app.shards FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE app.shards_3 PARTITION OF app.shards FOR VALUES WITH (MODULUS 4, REMAINDER 3);
CREATE INDEX shards_id_hash ON app.shards USING hash (id);

CREATE TABLE app.links (
    event ulid NOT NULL REFERENCES app.events (id),
    shard ulid NOT NULL,
    ord app.order_id DEFAULT gen_ulid(),
    PRIMARY KEY (event, shard)
);

CREATE VIEW app.recent_events AS
    SELECT id, ulid_to_timestamp(id) AS at FROM app.events
    WHERE id >= '2000-01-01 00:00:00+00'::timestamptz::ulid AND id <= ulid_max('10000-01-01 00:00:00+00');
SQL
cat >"$WORK/data.sql" <<SQL
SET search_path = app, ulidx, public;
INSERT INTO events (note) SELECT 'row ' || g FROM generate_series(1, $ROWS) g;
UPDATE events SET parent = p.id
  FROM (SELECT id, row_number() OVER (ORDER BY id) AS r FROM events) p,
       (SELECT id, row_number() OVER (ORDER BY id) AS r FROM events) c
 WHERE events.id = c.id AND p.r = c.r - 1 AND c.r % 3 <> 0;
UPDATE events SET refs = ARRAY[parent, NULL, random_id]::ulid[] WHERE parent IS NOT NULL AND note LIKE '%7';
UPDATE events SET refs = ARRAY[id] WHERE note LIKE '%5';
UPDATE events SET as_uuid = id::uuid WHERE note NOT LIKE '%9';
INSERT INTO events (id, parent, refs, backfill, random_id, note) VALUES
    ('00000000000000000000000001', '00000000000000000000000000', '{00000000000000000000000000}', NULL,
     '00000000000000000000000000', 'smallest'),
    ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '{7ZZZZZZZZZZZZZZZZZZZZZZZZZ,NULL}', NULL,
     '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'largest'),
    ('01arz3ndektsv4rrffq69g5fav', NULL, '{}', DEFAULT, DEFAULT, 'lower case in');
INSERT INTO shards (n) SELECT g FROM generate_series(1, $ROWS) g;
INSERT INTO links (event, shard)
    SELECT e.id, s.id FROM (SELECT id, row_number() OVER (ORDER BY id) AS r FROM events) e
                      JOIN (SELECT id, row_number() OVER (ORDER BY id) AS r FROM shards) s USING (r)
    WHERE r % 4 = 0;
ANALYZE;
SQL

if (($(q "$SRC" "SHOW server_version_num") < 140000)); then
    note "PostgreSQL $(q "$SRC" "SHOW server_version") has no minmax-multi or bloom BRIN: random_id gets a minmax BRIN index"
fi
if "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d "$SRC" -f "$WORK/schema.sql" -f "$WORK/data.sql" >/dev/null; then
    ok "source schema and data created"
else
    bad "source schema and data"
    checks_summary
    exit 1
fi
echo "# ulid $(q "$SRC" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"), $(q "$SRC" 'SELECT version()')"
for t in events shards links; do
    note "source app.$t: $(q "$SRC" "SELECT count(*) FROM app.$t") rows"
done

# ---------------------------------------------------------------------------------------------
echo
echo "# copies: pg_dump -Fc + pg_restore -> $DB_FC; pg_dump | psql -> $DB_SQL"
"$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c 'SET client_min_messages = warning' \
    -c "DROP DATABASE IF EXISTS \"$DB_FC\"" -c "DROP DATABASE IF EXISTS \"$DB_SQL\"" \
    -c "CREATE DATABASE \"$DB_FC\" TEMPLATE template0" -c "CREATE DATABASE \"$DB_SQL\" TEMPLATE template0"

rc=0
"$bindir/pg_dump" -Fc -f "$WORK/src.dump" "$SRC" 2>"$WORK/pg_dump.err" || rc=$?
expect "pg_dump -Fc exit status" "$rc" -eq 0
rc=0
"$bindir/pg_restore" --exit-on-error -d "$DB_FC" "$WORK/src.dump" 2>"$WORK/pg_restore.err" || rc=$?
expect "pg_restore exit status" "$rc" -eq 0
expect_str "pg_restore wrote nothing to stderr" "$(cat "$WORK/pg_restore.err")" ""

rc=0
"$bindir/pg_dump" "$SRC" 2>"$WORK/pg_dump_plain.err" >"$WORK/src.sql" || rc=$?
expect "pg_dump (plain) exit status" "$rc" -eq 0
rc=0
"$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d "$DB_SQL" -f "$WORK/src.sql" >"$WORK/psql_restore.out" \
    2>"$WORK/psql_restore.err" || rc=$?
expect "pg_dump | psql (ON_ERROR_STOP) exit status" "$rc" -eq 0
expect_str "psql restore wrote nothing to stderr" "$(cat "$WORK/psql_restore.err")" ""
expect_contains "the dump names the extension's objects schema-qualified" "$(cat "$WORK/src.sql")" \
    'ulidx.gen_ulid()'

"$bindir/pg_dump" --schema-only "$SRC" 2>/dev/null | grep -vE '^\\(un)?restrict ' >"$WORK/schema.src"

# table_md5 DB SQL: md5 of COPY (SQL) TO STDOUT [binary with a third argument]
table_md5() {
    local fmt=""
    [[ ${3:-} == binary ]] && fmt=" (FORMAT binary)"
    PGOPTIONS="-c search_path=app,ulidx,public -c client_min_messages=warning" "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d "$1" \
        -c "COPY ($2) TO STDOUT$fmt" | md5sum | cut -d' ' -f1
}
declare -A TABLE_SQL=(
    [events]="SELECT * FROM app.events ORDER BY id"
    [shards]="SELECT tableoid::regclass::text AS part, * FROM app.shards ORDER BY id"
    [links]="SELECT * FROM app.links ORDER BY event, shard"
    [recent_events]="SELECT * FROM app.recent_events ORDER BY id"
)

# check_copy DB LABEL
check_copy() {
    local db="$1" l="$2" t src_md5 dst_md5 n i
    echo
    echo "# $l (database $db)"
    # (\restrict/\unrestrict carry a random key per dump since 15.14)
    "$bindir/pg_dump" --schema-only "$db" 2>/dev/null | grep -vE '^\\(un)?restrict ' >"$WORK/schema.$l"
    if diff -u "$WORK/schema.src" "$WORK/schema.$l" >"$WORK/schema.$l.diff"; then
        ok "$l: schema-only dump identical to the source's ($(wc -l <"$WORK/schema.src") lines)"
    else
        bad "$l: schema-only dump differs from the source's:"
        sed 's/^/#     /' "$WORK/schema.$l.diff" | head -40
    fi
    for t in events shards links recent_events; do
        n="$(q "$db" "SELECT count(*) FROM app.$t")"
        src_md5="$(table_md5 "$SRC" "${TABLE_SQL[$t]}")"
        dst_md5="$(table_md5 "$db" "${TABLE_SQL[$t]}")"
        if [[ $src_md5 == "$dst_md5" && $n == "$(q "$SRC" "SELECT count(*) FROM app.$t")" ]]; then
            ok "$l: app.$t identical to the source ($n rows, md5 of ordered COPY text $dst_md5)"
        else
            bad "$l: app.$t differs from the source ($n rows, md5 $dst_md5 vs $src_md5)"
        fi
    done
    # (binary arrays carry their element type's OID, which differs between databases: refs left out)
    local bin="SELECT id, parent, backfill, random_id, created, as_uuid, note FROM app.events ORDER BY id"
    if [[ "$(table_md5 "$SRC" "$bin" binary)" == "$(table_md5 "$db" "$bin" binary)" ]]; then
        ok "$l: app.events identical in COPY BINARY too (ulid[] column left out)"
    else
        bad "$l: app.events differs in COPY BINARY"
    fi

    for i in 0 1 2 3; do
        expect "$l: rows of app.shards_$i outside its hash partition" \
            "$(q "$db" "SELECT count(*) FROM app.shards_$i
                        WHERE NOT satisfies_hash_partition('app.shards'::regclass, 4, $i, id)")" -eq 0
    done
    expect "$l: invalid or not-ready indexes" \
        "$(q "$db" "SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
                    JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = 'app' AND NOT (i.indisvalid AND i.indisready AND i.indislive)")" -eq 0
    local btrees failed=0 idx
    btrees="$(q "$db" "SELECT i.indexrelid::regclass FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
                       JOIN pg_am am ON am.oid = ic.relam JOIN pg_namespace n ON n.oid = ic.relnamespace
                       WHERE n.nspname = 'app' AND am.amname = 'btree' AND ic.relkind = 'i' ORDER BY 1")"
    for idx in $btrees; do
        q "$db" "SELECT bt_index_parent_check('$idx'::regclass, true)" >/dev/null 2>"$WORK/amcheck.err" || {
            failed=$((failed + 1))
            bad "$l: bt_index_parent_check($idx): $(head -n 1 "$WORK/amcheck.err")"
        }
    done
    expect "$l: btree indexes passing bt_index_parent_check(heapallindexed) (of $(wc -w <<<"$btrees"))" \
        "$(($(wc -w <<<"$btrees") - failed))" -eq "$(wc -w <<<"$btrees")"

    local lookups="SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
                   SET LOCAL enable_tidscan = off; SET LOCAL enable_hashjoin = off;
                   SET LOCAL enable_mergejoin = off; SET LOCAL enable_material = off;"
    expect "$l: app.events rows not found through events_id_hash" \
        "$(q "$db" "BEGIN; ALTER TABLE app.events DROP CONSTRAINT events_pkey CASCADE; $lookups
                    SELECT count(*) FROM app.events a
                    WHERE NOT EXISTS (SELECT FROM app.events b WHERE b.id = a.id AND b.ctid = a.ctid);
                    ROLLBACK;")" -eq 0
    expect_contains "$l: (that lookup is an index scan of events_id_hash)" \
        "$(q "$db" "BEGIN; ALTER TABLE app.events DROP CONSTRAINT events_pkey CASCADE; $lookups
                    EXPLAIN (COSTS OFF) SELECT count(*) FROM app.events a
                    WHERE NOT EXISTS (SELECT FROM app.events b WHERE b.id = a.id AND b.ctid = a.ctid);
                    ROLLBACK;")" 'Index Scan using events_id_hash'
    expect "$l: app.shards rows not found through the partitions' hash indexes" \
        "$(q "$db" "BEGIN; ALTER TABLE app.shards DROP CONSTRAINT shards_pkey; $lookups
                    SELECT count(*) FROM app.shards a
                    WHERE NOT EXISTS (SELECT FROM app.shards b WHERE b.id = a.id AND b.tableoid = a.tableoid
                                                                 AND b.ctid = a.ctid);
                    ROLLBACK;")" -eq 0
    local total brin_sql="BEGIN; ALTER TABLE app.events DROP CONSTRAINT events_pkey CASCADE;
                          DROP INDEX app.events_id_hash, app.events_random_id, app.events_created;
                          SET LOCAL enable_seqscan = off;"
    total="$(q "$db" "SELECT count(*) FROM app.events")"
    expect "$l: app.events rows found by a minmax BRIN range scan on id (of $total)" \
        "$(q "$db" "$brin_sql SELECT count(*) FROM app.events
                    WHERE id BETWEEN '00000000000000000000000000' AND '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'; ROLLBACK;")" \
        -eq "$total"
    expect "$l: 300 random_id values not found through the bloom / minmax-multi BRIN indexes (minmax on 13)" \
        "$(q "$db" "$brin_sql SELECT count(*) FROM (SELECT random_id FROM app.events ORDER BY id LIMIT 300) s
                    WHERE NOT EXISTS (SELECT FROM app.events e WHERE e.random_id = s.random_id); ROLLBACK;")" -eq 0
    expect_match "$l: (those lookups are bitmap scans of a BRIN index on random_id)" \
        "$(q "$db" "$brin_sql EXPLAIN (COSTS OFF) SELECT count(*) FROM (SELECT random_id FROM app.events ORDER BY id LIMIT 300) s
                    WHERE NOT EXISTS (SELECT FROM app.events e WHERE e.random_id = s.random_id); ROLLBACK;")" \
        'Bitmap Index Scan on events_random_(bloom|multi|minmax)'

    # defaults after the restore
    local row
    row="$(q "$db" "INSERT INTO app.events (note) VALUES ('after restore')
                    RETURNING (id IS NOT NULL AND random_id IS NOT NULL AND refs = '{}'
                               AND ulidx.ulid_to_timestamp(backfill) = '2001-02-03 04:05:06.789+00'
                               AND created = ulidx.ulid_to_timestamp(id))::text")" || row=""
    expect_str "$l: app.events defaults (gen_ulid(), gen_random_ulid(), gen_ulid(timestamptz), '{}', generated column) work" \
        "$row" "true"
    row="$(q "$db" "INSERT INTO app.shards (n) SELECT g FROM generate_series(1, 1000) g;
                    SELECT count(*) FROM app.shards WHERE n <= 1000")" || row=""
    expect "$l: app.shards rows with n <= 1000 after 1000 more DEFAULT gen_random_ulid() inserts" "$row" -eq 2000
    row="$(q "$db" "INSERT INTO app.links (event, shard)
                    SELECT id, ulidx.gen_random_ulid() FROM app.events ORDER BY id LIMIT 10;
                    SELECT count(*) FROM app.links WHERE ord IS NULL")" || row=""
    expect "$l: app.links rows with a NULL domain-typed DEFAULT gen_ulid() column" "$row" -eq 0
    expect "$l: duplicate ids in app.events / app.shards after the new inserts" \
        "$(q "$db" "SELECT (SELECT count(*) - count(DISTINCT id) FROM app.events)
                           + (SELECT count(*) - count(DISTINCT id) FROM app.shards)")" -eq 0
}

check_copy "$DB_FC" "custom"
check_copy "$DB_SQL" "plain"

checks_summary
