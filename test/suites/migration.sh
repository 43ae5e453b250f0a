#!/usr/bin/env bash
# Migration recipes, run verbatim from test/suites/recipes/*.sql on a server of its own
# (test/lib/cluster.sh); docs/migrating.md shows the same files.
#
# (a) migrate_uuid_to_ulid.sql: customers.id (uuid primary key; random v4 and time-ordered v7
#     values) and orders.id / orders.customer_id (uuid, foreign key ON DELETE CASCADE) become ulid
#     in place: every key keeps its 16 bytes, the tables are not rewritten, the foreign key is back
#     (validated, cascading, refusing orphans), new rows get gen_ulid(), a UUIDv7 key's time reads
#     back through ulid_to_timestamp, amcheck passes on the rebuilt indexes.
# (b) migrate_text_to_ulid.sql: a text and a char(26) column holding ULID strings made by a pure
#     PL/pgSQL encoder (the kind of generator people used before the extension) — uppercase,
#     lowercase, with Crockford aliases, NULLs, and invalid strings of every kind — become ulid: no
#     row lost, every valid string decodes to the bytes the encoder was given, every invalid one is
#     NULL and listed in ulid_rejects with its original value and the reason, NULLs stay NULL.
# (c) migrate_ulid_to_uuid.sql: back to uuid, byte-identical to the original uuids, foreign key
#     intact, and nothing left that depends on the extension (DROP EXTENSION ulid would succeed).
# (d) docs/migrating.md's parent-first steps in order: migrate_parent_first.sql (customers.id to
#     ulid, orders keep uuid with an index on uuid_ulid_ops), migrate_child_after_parent.sql
#     (orders.customer_id follows; the bare ALTER the page once showed is refused, checked), then
#     on 14+ a BRIN index on ulid_minmax_multi_ops (a bare ALTER back is refused, checked), and
#     migrate_parent_first_back.sql: every key byte-identical to the original uuid, the foreign
#     key, each index on uuid's class of the same kind, nothing depending on the extension.
# (e) the parent first and straight back, the child's index still on uuid_ulid_ops.
# Prints one line per check, exits non-zero on any violation.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/cluster.sh
source test/lib/checks.sh
suite_isolate_env
suite_exit_on_signals

RECIPES=test/suites/recipes
q() { cluster_psql m -d postgres -At <<<"$1"; }
recipe() { cluster_psql m -d postgres -f "$RECIPES/$1"; }

echo "# setup"
must "start server" cluster_up m --no-sync
note "$(q 'SELECT version()')"
must "extensions ulid and amcheck" q "CREATE EXTENSION ulid; CREATE EXTENSION amcheck"
must "uuid schema: 1000 v4 + 1000 v7 customers, 3 orders each, snapshot of every key's bytes" q "
    CREATE TABLE customers (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL UNIQUE,
                            v7_time timestamptz);
    CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                         customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
                         note text NOT NULL UNIQUE);
    CREATE INDEX orders_customer_id ON orders (customer_id);
    INSERT INTO customers (name) SELECT 'v4 customer ' || g FROM generate_series(1, 1000) g;
    -- UUIDv7: 48-bit Unix milliseconds, version 7, variant, random bits
    INSERT INTO customers (id, name, v7_time)
    SELECT encode(substring(int8send((extract(epoch FROM t) * 1000)::bigint) FROM 3)
                  || set_byte(substring(uuid_send(gen_random_uuid()) FROM 7), 0,
                              (get_byte(uuid_send(gen_random_uuid()), 6) & 15) | 112), 'hex')::uuid,
           'v7 customer ' || g, t
    FROM (SELECT g, timestamptz '2024-05-01 00:00:00+00' + g * interval '1 hour 0.123 seconds' AS t
          FROM generate_series(1, 1000) g) s;
    INSERT INTO orders (customer_id, note)
    SELECT c.id, c.name || ' order ' || k FROM customers c, generate_series(1, 3) k;
    CREATE TABLE snap_customers AS SELECT name, uuid_send(id) AS id_bytes FROM customers;
    CREATE TABLE snap_orders AS
        SELECT note, uuid_send(id) AS id_bytes, uuid_send(customer_id) AS customer_bytes FROM orders;
    CREATE TABLE filenodes AS
        SELECT relname, pg_relation_filenode(oid::regclass) AS before FROM pg_class
        WHERE relname IN ('customers', 'orders')"

# fk_checks LABEL: the foreign key exists, is validated and cascades, and refuses an orphan
fk_checks() {
    expect_str "$1: orders_customer_id_fkey (validated, ON DELETE CASCADE)" \
        "$(q "SELECT pg_get_constraintdef(oid) || ' valid=' || convalidated FROM pg_constraint
              WHERE conname = 'orders_customer_id_fkey'")" \
        "FOREIGN KEY (customer_id) REFERENCES customers(id) ON DELETE CASCADE valid=true"
    local out
    out="$(q "INSERT INTO orders (customer_id, note)
              SELECT '00000000-0000-0000-0000-000000000001'::uuid::$2, 'orphan'" 2>&1)"
    expect_contains "$1: an order for a missing customer is refused (23503)" "$out" \
        'violates foreign key constraint "orders_customer_id_fkey"'
    expect_str "$1: deleting a customer deletes its 3 orders (rolled back)" \
        "$(q "BEGIN; DELETE FROM customers WHERE name = 'v4 customer 7';
              SELECT count(*) FROM orders WHERE note LIKE 'v4 customer 7 order %'; ROLLBACK;")" 0
    expect "$1: orders joined to their customer (of $(q 'SELECT count(*) FROM orders'))" \
        "$(q 'SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id')" -eq "$(q 'SELECT count(*) FROM orders')"
}
# types: the types of customers.id, orders.id, orders.customer_id
types() {
    q "SELECT string_agg(format_type(atttypid, atttypmod), ',' ORDER BY attrelid::regclass::text, attnum)
       FROM pg_attribute WHERE attrelid IN ('customers'::regclass, 'orders'::regclass)
       AND attname IN ('id', 'customer_id')"
}

echo
echo "# (a) uuid primary key and foreign key -> ulid ($RECIPES/migrate_uuid_to_ulid.sql)"
must "migrate_uuid_to_ulid.sql runs" recipe migrate_uuid_to_ulid.sql
expect_str "column types customers.id, orders.id, orders.customer_id" "$(types)" "ulid,ulid,ulid"
expect "customers whose key bytes changed (of 2000)" \
    "$(q "SELECT count(*) FROM customers c FULL JOIN snap_customers s USING (name)
          WHERE ulid_send(c.id) IS DISTINCT FROM s.id_bytes")" -eq 0
expect "orders whose id or customer_id bytes changed (of 6000)" \
    "$(q "SELECT count(*) FROM orders o FULL JOIN snap_orders s USING (note)
          WHERE ulid_send(o.id) IS DISTINCT FROM s.id_bytes
             OR ulid_send(o.customer_id) IS DISTINCT FROM s.customer_bytes")" -eq 0
expect "tables rewritten by the conversion (relfilenode changed; binary-coercible cast: none)" \
    "$(q "SELECT count(*) FROM filenodes WHERE pg_relation_filenode(relname::regclass) <> before")" -eq 0
fk_checks "after (a)" ulid
expect "UUIDv7 keys whose ulid_to_timestamp(id) is their time (of 1000)" \
    "$(q "SELECT count(*) FROM customers WHERE ulid_to_timestamp(id) = date_trunc('milliseconds', v7_time)")" -eq 1000
must "new customer and order with DEFAULT gen_ulid()" q "
    WITH c AS (INSERT INTO customers (name) VALUES ('new customer') RETURNING id)
    INSERT INTO orders (customer_id, note) SELECT id, 'new order' FROM c"
expect_match "the new order's key is a ULID of now" \
    "$(q "SELECT abs(extract(epoch FROM ulid_to_timestamp(id) - now())) < 3600 FROM orders WHERE note = 'new order'")" '^t$'
for idx in customers_pkey orders_pkey orders_customer_id; do
    if q "SELECT bt_index_check('$idx', true)" >/dev/null; then
        ok "bt_index_check($idx, heapallindexed) passes"
    else
        bad "bt_index_check($idx, heapallindexed)"
    fi
done

echo
echo "# (b) text and char(26) ULID strings -> ulid, bad values reported ($RECIPES/migrate_text_to_ulid.sql)"
# legacy_expected holds, per row, the strings stored and (for valid ones) the bytes they encode
must "legacy_events: ULID strings from a PL/pgSQL encoder (upper, lower, aliases), NULLs, invalid strings" q "
    CREATE FUNCTION plpgsql_ulid_text(b bytea) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS \$\$
    DECLARE
        alphabet CONSTANT text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
        bits varbit := B'00';
        res text := '';
    BEGIN
        FOR i IN 0..15 LOOP bits := bits || get_byte(b, i)::bit(8); END LOOP;
        FOR i IN 0..25 LOOP
            res := res || substr(alphabet, substring(bits FROM i * 5 + 1 FOR 5)::bit(5)::int + 1, 1);
        END LOOP;
        RETURN res;
    END \$\$;
    CREATE TABLE legacy_expected (id bigint PRIMARY KEY, kind text NOT NULL,
                                  ext_text text, ext_bytes bytea, ref_text text, ref_bytes bytea);
    -- valid: 48-bit ms of a 2023 time and 80 random bits
    INSERT INTO legacy_expected (id, kind, ext_bytes, ref_bytes)
    SELECT g, CASE WHEN g <= 1000 THEN 'upper' WHEN g <= 1200 THEN 'lower' ELSE 'alias' END,
           substring(int8send(1672531200000 + g * 60000) FROM 3) || substring(uuid_send(gen_random_uuid()) FROM 1 FOR 10),
           substring(int8send(1672531200000 + g * 61000) FROM 3) || substring(uuid_send(gen_random_uuid()) FROM 1 FOR 10)
    FROM generate_series(1, 1250) g;
    UPDATE legacy_expected SET ext_text = plpgsql_ulid_text(ext_bytes), ref_text = plpgsql_ulid_text(ref_bytes);
    UPDATE legacy_expected SET ext_text = lower(ext_text), ref_text = lower(ref_text) WHERE kind = 'lower';
    UPDATE legacy_expected SET ext_text = translate(ext_text, '01', 'OI'), ref_text = translate(lower(ref_text), '01', 'ol')
        WHERE kind = 'alias';
    INSERT INTO legacy_expected (id, kind) SELECT g, 'null' FROM generate_series(1251, 1270) g;
    -- invalid text values (the char(26) column valid), then invalid char(26) values (the text valid)
    INSERT INTO legacy_expected (id, kind, ext_text, ref_text, ref_bytes)
    SELECT 2000 + n, 'bad ext_id', v, plpgsql_ulid_text(b), b
    FROM unnest(ARRAY['', '01ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FAVV',
                      '01ARZ3NDEKTSV4RRFFQ69G5FAU', '81ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEK-SV4RRFFQ69G5FAV',
                      ' 01ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FÄV', '01arz3ndektsv4rrffq69g5fa!',
                      '0190c5d4-7b3e-7c1a-9f7e-3d5c2a1b0e9f']) WITH ORDINALITY AS u (v, n),
         LATERAL (SELECT substring(int8send(1700000000000 + n) FROM 3) || '\\x00112233445566778899'::bytea AS b) x;
    INSERT INTO legacy_expected (id, kind, ext_text, ext_bytes, ref_text)
    SELECT 3000 + n, 'bad ref', plpgsql_ulid_text(b), b, v
    FROM unnest(ARRAY['abc', '01ARZ3NDEKTSV4RRFFQ69G5FAU', '81ARZ3NDEKTSV4RRFFQ69G5FAV',
                      '01ARZ3NDEKTSV4RRFFQ69G5F', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ', '01ARZ3NDEKTSV4RR_FQ69G5FAV'])
         WITH ORDINALITY AS u (v, n),
         LATERAL (SELECT substring(int8send(1700000000000 + n) FROM 3) || '\\xffeeddccbbaa99887766'::bytea AS b) x;
    CREATE TABLE legacy_events (id bigint PRIMARY KEY, ext_id text, ref char(26), body text NOT NULL);
    INSERT INTO legacy_events SELECT id, ext_text, ref_text, 'row ' || id FROM legacy_expected"
read -r n_rows n_bad_ext n_bad_ref n_null <<<"$(q "SELECT count(*), count(*) FILTER (WHERE kind = 'bad ext_id'),
    count(*) FILTER (WHERE kind = 'bad ref'), count(*) FILTER (WHERE kind = 'null') FROM legacy_expected" | tr '|' ' ')"
note "legacy_events: $n_rows rows, $n_bad_ext invalid ext_id (text), $n_bad_ref invalid ref (char(26)), $n_null all-NULL"
expect "the PL/pgSQL encoder agrees with ulid_out on the valid rows (of 1250)" \
    "$(q "SELECT count(*) FROM legacy_expected WHERE kind = 'upper'
          AND ext_text = (ext_bytes::ulid)::text AND ref_text = (ref_bytes::ulid)::text")" -eq 1000
report="$(cluster_psql m -d postgres -At -F ' ' -f "$RECIPES/migrate_text_to_ulid.sql" 2>&1)"
rc=$?
printf '%s\n' "$report" | sed 's/^/#   report: /'
expect "migrate_text_to_ulid.sql exit status" "$rc" -eq 0
expect_str "the report: rejected per column" "$(printf '%s\n' "$report" | tail -n 2 | tr '\n' ';')" \
    "ext_id $n_bad_ext;ref $n_bad_ref;"
expect_str "column types ext_id, ref" \
    "$(q "SELECT string_agg(format_type(atttypid, atttypmod), ',' ORDER BY attnum) FROM pg_attribute
          WHERE attrelid = 'legacy_events'::regclass AND attname IN ('ext_id', 'ref')")" "ulid,ulid"
expect "rows in legacy_events (none lost)" "$(q 'SELECT count(*) FROM legacy_events')" -eq "$n_rows"
expect "rows whose body changed" \
    "$(q "SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id) WHERE e.body <> 'row ' || x.id")" -eq 0
expect "valid strings not decoded to the encoder's bytes (upper, lower, aliases; both columns)" \
    "$(q "SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id)
          WHERE (x.ext_bytes IS NOT NULL AND ulid_send(e.ext_id) IS DISTINCT FROM x.ext_bytes)
             OR (x.ref_bytes IS NOT NULL AND ulid_send(e.ref) IS DISTINCT FROM x.ref_bytes)")" -eq 0
expect "lowercase and alias strings now in canonical uppercase (of 250)" \
    "$(q "SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id)
          WHERE x.kind IN ('lower', 'alias') AND e.ext_id::text = (x.ext_bytes::ulid)::text
            AND e.ref::text = upper(plpgsql_ulid_text(x.ref_bytes))")" -eq 250
expect "invalid values now NULL (of $((n_bad_ext + n_bad_ref)))" \
    "$(q "SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id)
          WHERE (x.kind = 'bad ext_id' AND e.ext_id IS NULL) OR (x.kind = 'bad ref' AND e.ref IS NULL)")" \
    -eq $((n_bad_ext + n_bad_ref))
expect "invalid values listed in ulid_rejects with their original text and a 22P02 reason" \
    "$(q "SELECT count(*) FROM ulid_rejects r JOIN legacy_expected x ON x.id = r.row_id
          WHERE r.table_name = 'legacy_events'::regclass
            AND ((r.column_name = 'ext_id' AND x.kind = 'bad ext_id' AND r.bad_value = x.ext_text)
              OR (r.column_name = 'ref' AND x.kind = 'bad ref' AND r.bad_value = rtrim(x.ref_text)))
            AND r.reason LIKE 'invalid input syntax for type ulid: %'")" -eq $((n_bad_ext + n_bad_ref))
expect "rows in ulid_rejects" "$(q 'SELECT count(*) FROM ulid_rejects')" -eq $((n_bad_ext + n_bad_ref))
expect "NULLs still NULL (of $n_null rows)" \
    "$(q "SELECT count(*) FROM legacy_events e JOIN legacy_expected x USING (id)
          WHERE x.kind = 'null' AND e.ext_id IS NULL AND e.ref IS NULL")" -eq "$n_null"
q "SELECT column_name, row_id, bad_value, reason FROM ulid_rejects ORDER BY 1, 2" | sed 's/^/#   reject: /'

echo
echo "# (c) ulid keys back to uuid ($RECIPES/migrate_ulid_to_uuid.sql)"
must "snapshot before (c), new rows included" q "
    CREATE TABLE snap2_customers AS SELECT name, ulid_send(id) AS id_bytes FROM customers;
    CREATE TABLE snap2_orders AS SELECT note, ulid_send(id) AS id_bytes, ulid_send(customer_id) AS customer_bytes FROM orders"
# snap2_changes: rows of customers and orders whose key bytes differ from the snapshot taken
# before (c) (rows on one side only included)
snap2_changes() {
    q "SELECT (SELECT count(*) FROM customers c FULL JOIN snap2_customers s USING (name)
               WHERE uuid_send(c.id) IS DISTINCT FROM s.id_bytes)
            + (SELECT count(*) FROM orders o FULL JOIN snap2_orders s USING (note)
               WHERE uuid_send(o.id) IS DISTINCT FROM s.id_bytes
                  OR uuid_send(o.customer_id) IS DISTINCT FROM s.customer_bytes)"
}
must "migrate_ulid_to_uuid.sql runs" recipe migrate_ulid_to_uuid.sql
expect_str "column types customers.id, orders.id, orders.customer_id" "$(types)" "uuid,uuid,uuid"
expect "customers whose key differs from the original uuid (round trip, of 2000)" \
    "$(q "SELECT count(*) FROM customers c JOIN snap_customers s USING (name) WHERE uuid_send(c.id) <> s.id_bytes")" -eq 0
expect "customers matched to their original uuid" \
    "$(q "SELECT count(*) FROM customers c JOIN snap_customers s USING (name) WHERE uuid_send(c.id) = s.id_bytes")" -eq 2000
expect "orders whose keys differ from the original uuids (round trip, of 6000)" \
    "$(q "SELECT count(*) FROM orders o JOIN snap_orders s USING (note)
          WHERE uuid_send(o.id) <> s.id_bytes OR uuid_send(o.customer_id) <> s.customer_bytes")" -eq 0
expect "rows whose key bytes changed in (c), new rows included" \
    "$(snap2_changes)" -eq 0
fk_checks "after (c)" uuid
out="$(q "BEGIN;
          DROP TABLE legacy_events, legacy_expected, ulid_rejects, snap2_customers, snap2_orders;
          DROP FUNCTION ulid_parse_error(text), ulid_or_null(text);
          DROP EXTENSION ulid;
          SELECT 'dropped';
          ROLLBACK;" 2>&1)"
expect_str "customers and orders no longer depend on the extension (DROP EXTENSION ulid RESTRICT, rolled back)" \
    "$out" "dropped"

# (d) and (e) end the same way: every key as it was, the foreign key, nothing depending on ulid
# (the tables of (b) go in the rolled-back transaction too)
back_checks() {
    expect_str "$1: column types customers.id, orders.id, orders.customer_id" "$(types)" "uuid,uuid,uuid"
    expect "$1: customers or orders whose key bytes differ from before (d) (snapshot of (c), every row)" \
        "$(snap2_changes)" -eq 0
    fk_checks "$1" uuid
    expect_str "$1: the indexes' operator classes" "$(index_classes)" "$2"
    expect_str "$1: nothing in customers and orders depends on the extension (DROP EXTENSION ulid, rolled back)" \
        "$(q "BEGIN; DROP TABLE legacy_events, legacy_expected, ulid_rejects;
              DROP FUNCTION ulid_parse_error(text), ulid_or_null(text); DROP EXTENSION ulid;
              SELECT 'dropped'; ROLLBACK;" 2>&1)" "dropped"
}
# index_classes: every index of customers and orders with the operator classes it uses
index_classes() {
    q "SELECT string_agg(i.indexrelid::regclass || ':' || c.opcname, ',' ORDER BY i.indexrelid::regclass::text, c.opcname)
       FROM pg_index i JOIN pg_opclass c ON c.oid = ANY (i.indclass::oid[])
       WHERE i.indrelid IN ('customers'::regclass, 'orders'::regclass)"
}
server_num="$(q 'SHOW server_version_num')"

echo
echo "# (d) docs/migrating.md in order: the parent first, then the child, then back"
must "migrate_parent_first.sql runs" recipe migrate_parent_first.sql
expect_str "after the parent: column types customers.id, orders.id, orders.customer_id" "$(types)" "ulid,uuid,uuid"
fk_checks "after the parent" uuid
expect_contains "after the parent: orders.customer_id is indexed with uuid_ulid_ops" "$(index_classes)" \
    "orders_customer_id_ulid:uuid_ulid_ops"
out="$(q "BEGIN; ALTER TABLE orders ALTER COLUMN customer_id TYPE ulid USING customer_id::ulid; ROLLBACK;" 2>&1)"
expect_contains "the child with a bare ALTER COLUMN ... TYPE ulid is refused (why the recipe)" "$out" \
    'operator class "uuid_ulid_ops" does not accept data type ulid'
must "migrate_child_after_parent.sql runs" recipe migrate_child_after_parent.sql
expect_str "after the child: column types" "$(types)" "ulid,uuid,ulid"
fk_checks "after the child" ulid
expect_str "after the child: the indexes' operator classes" "$(index_classes)" \
    "customers_name_key:text_ops,customers_pkey:ulid_ops,orders_customer_id:ulid_ops,orders_note_key:text_ops,orders_pkey:uuid_ops"
want_back="customers_name_key:text_ops,customers_pkey:uuid_ops,orders_customer_id:uuid_ops,orders_note_key:text_ops,orders_pkey:uuid_ops"
if ((server_num >= 140000)); then
    must "a BRIN minmax-multi index on customers.id (ulid_minmax_multi_ops)" \
        q "CREATE INDEX customers_id_multi ON customers USING brin (id ulid_minmax_multi_ops)"
    out="$(q "BEGIN; ALTER TABLE orders DROP CONSTRAINT orders_customer_id_fkey;
              ALTER TABLE customers ALTER COLUMN id TYPE uuid USING id::uuid; ROLLBACK;" 2>&1)"
    expect_contains "customers.id back to uuid with a bare ALTER is refused (why the recipe)" "$out" \
        'operator class "ulid_minmax_multi_ops" does not accept data type uuid'
    want_back="customers_id_multi:uuid_minmax_multi_ops,$want_back"
else
    note "PostgreSQL 13 has no BRIN minmax-multi: the way back meets only the default classes here"
fi
must "migrate_parent_first_back.sql runs" recipe migrate_parent_first_back.sql
back_checks "(d) back" "$want_back"
((server_num >= 140000)) && q "DROP INDEX customers_id_multi" >/dev/null

echo
echo "# (e) the parent first, then straight back (the child still on uuid_ulid_ops)"
must "migrate_parent_first.sql runs" recipe migrate_parent_first.sql
must "migrate_parent_first_back.sql runs" recipe migrate_parent_first_back.sql
back_checks "(e) back" \
    "customers_name_key:text_ops,customers_pkey:uuid_ops,orders_customer_id_ulid:uuid_ops,orders_note_key:text_ops,orders_pkey:uuid_ops"

checks_summary
