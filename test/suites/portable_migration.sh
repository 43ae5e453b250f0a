#!/usr/bin/env bash
# The portable edition's ways up and down, with the recipes of test/suites/recipes run verbatim
# (docs/portable.md quotes them):
# (up)   customers (uuid primary key) and orders (uuid primary key, uuid foreign key ON DELETE
#        CASCADE, an index on it), keys filled by ulid_portable.gen_ulid(), move to the native type
#        with migrate_uuid_to_ulid.sql: no table rewritten (relfilenode unchanged), every key reads
#        back as the 26 characters ulid_portable.ulid_encode() gave, foreign key and index back,
#        new rows from gen_ulid(); portable_drop.sql first refuses (a default still uses the
#        schema), then drops the schema with RESTRICT after the move.
# (down) the same tables on the native type move to uuid with native_to_portable.sql (no rewrite,
#        defaults ulid_portable.gen_ulid()), portable_dump_restore.sh restores them into a database
#        without the extension: no error, no extension there, the same bytes and the same 26
#        characters, foreign key and defaults working, new keys above the old ones.
# Runs in the throwaway cluster of scripts/test (PG* environment, a superuser). About 10 s.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/checks.sh
suite_exit_on_signals

PORTABLE=portable/ulid_portable.sql
RECIPES=test/suites/recipes
DB="${PGDATABASE:-postgres}"
SRC="${DB}_native_src"
DST="${DB}_portable_dst"
BINDIR="$("${PG_CONFIG:-pg_config}" --bindir)"
WORK="$(mktemp -d -t ulid-portable-mig.XXXXXX)"
cleanup() {
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS \"$SRC\"" -c "DROP DATABASE IF EXISTS \"$DST\"" \
        -c "DROP DATABASE IF EXISTS \"${DB}_parent_first\"" >/dev/null 2>&1
    rm -rf "$WORK"
}
trap cleanup EXIT

qd() { # DB SQL
    psql -X -At -v ON_ERROR_STOP=1 -d "$1" -c "$2"
}
q() { qd "$DB" "$1"; }
qs() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$1" <<<"$2"; } # DB SQL: several statements, every result
recipe() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" -f "$RECIPES/$2"; }
types() { # DB: the types of customers.id, orders.id, orders.customer_id
    qd "$1" "SELECT string_agg(format_type(atttypid, atttypmod), ',' ORDER BY attrelid::regclass::text, attnum)
             FROM pg_attribute WHERE attrelid IN ('customers'::regclass, 'orders'::regclass)
             AND attname IN ('id', 'customer_id')"
}
# schema DB KEYTYPE DEFAULT: customers and orders with a foreign key and an index, 2000 + 6000 rows
schema() {
    qd "$1" "
    CREATE TABLE customers (id $2 PRIMARY KEY DEFAULT $3, name text NOT NULL UNIQUE);
    CREATE TABLE orders (id $2 PRIMARY KEY DEFAULT $3,
                         customer_id $2 NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
                         note text NOT NULL UNIQUE);
    CREATE INDEX orders_customer_id ON orders (customer_id);
    INSERT INTO customers (name) SELECT 'customer ' || g FROM generate_series(1, 2000) g;
    INSERT INTO orders (customer_id, note) SELECT c.id, c.name || ' order ' || k FROM customers c, generate_series(1, 3) k;
    CREATE TABLE filenodes AS SELECT relname, pg_relation_filenode(oid::regclass) AS before FROM pg_class
        WHERE relname IN ('customers', 'orders')"
}
fk_checks() { # LABEL DB
    expect_str "$1: foreign key validated, ON DELETE CASCADE; index on orders.customer_id" \
        "$(qd "$2" "SELECT pg_get_constraintdef(oid) || ' valid=' || convalidated FROM pg_constraint
                    WHERE conname = 'orders_customer_id_fkey'")|$(qd "$2" "SELECT count(*) FROM pg_index WHERE indexrelid = 'orders_customer_id'::regclass AND indisvalid")" \
        "FOREIGN KEY (customer_id) REFERENCES customers(id) ON DELETE CASCADE valid=true|1"
    expect_contains "$1: an order for a missing customer is refused" \
        "$(qd "$2" "INSERT INTO orders (customer_id, note) SELECT id, 'orphan' FROM customers ORDER BY id DESC LIMIT 1;
                    DELETE FROM customers WHERE id = (SELECT id FROM customers ORDER BY id DESC LIMIT 1);
                    INSERT INTO orders (customer_id, note) SELECT '00000000-0000-0000-0000-000000000001'::uuid::$3, 'orphan 2'" 2>&1)" \
        'violates foreign key constraint "orders_customer_id_fkey"'
}
unchanged_files() { # DB: tables whose relfilenode changed
    qd "$1" "SELECT count(*) FROM filenodes WHERE pg_relation_filenode(relname::regclass) <> before"
}

echo "# setup"
note "$(q 'SELECT version()')"
must "portable edition installed" psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -f "$PORTABLE"

echo
echo "# up: portable -> native ($RECIPES/migrate_uuid_to_ulid.sql, $RECIPES/portable_drop.sql)"
must "uuid tables keyed by ulid_portable.gen_ulid(): 2000 customers, 6000 orders" schema "$DB" uuid "ulid_portable.gen_ulid()"
must "snapshot: the portable encoder's text of every key" q "
    CREATE TABLE snap_customers AS SELECT name, ulid_portable.ulid_encode(id) AS id_text FROM customers;
    CREATE TABLE snap_orders AS SELECT note, ulid_portable.ulid_encode(id) AS id_text,
                                       ulid_portable.ulid_encode(customer_id) AS customer_text FROM orders"
expect "keys in increasing order of insertion (one session's gen_ulid())" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY xmin::text::bigint, ctid) AS back FROM orders) s WHERE back")" -eq 0
out="$(psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -f "$RECIPES/portable_drop.sql" 2>&1)"
expect_contains "portable_drop.sql refuses while a default uses the schema" "$out" \
    "default value for column id of table customers depends on function ulid_portable.gen_ulid()"
expect "... and drops nothing" "$(q "SELECT count(*) FROM pg_proc WHERE pronamespace = 'ulid_portable'::regnamespace")" -eq 17
must "CREATE EXTENSION ulid" q "CREATE EXTENSION IF NOT EXISTS ulid"
must "migrate_uuid_to_ulid.sql runs" recipe "$DB" migrate_uuid_to_ulid.sql
expect_str "column types customers.id, orders.id, orders.customer_id" "$(types "$DB")" "ulid,ulid,ulid"
expect "tables rewritten (relfilenode changed)" "$(unchanged_files "$DB")" -eq 0
expect "keys whose text differs from the portable encoder's (2000 customers, 6000 orders)" \
    "$(q "SELECT (SELECT count(*) FROM customers c FULL JOIN snap_customers s USING (name) WHERE c.id::text IS DISTINCT FROM s.id_text)
               + (SELECT count(*) FROM orders o FULL JOIN snap_orders s USING (note)
                  WHERE o.id::text IS DISTINCT FROM s.id_text OR o.customer_id::text IS DISTINCT FROM s.customer_text)")" -eq 0
expect "keys matched (of 8000)" \
    "$(q "SELECT (SELECT count(*) FROM customers c JOIN snap_customers s ON c.id::text = s.id_text)
               + (SELECT count(*) FROM orders o JOIN snap_orders s ON o.id::text = s.id_text AND o.customer_id::text = s.customer_text)")" -eq 8000
fk_checks "up" "$DB" ulid
must "new rows with DEFAULT gen_ulid() above the portable ones" q "
    INSERT INTO customers (name) VALUES ('native customer');
    DO \$\$ BEGIN IF (SELECT id FROM customers WHERE name = 'native customer')
                      <= (SELECT max(id) FROM customers WHERE name <> 'native customer') IS NOT FALSE THEN
                     RAISE EXCEPTION 'new key not above the old ones'; END IF; END \$\$"
must "portable_drop.sql runs" recipe "$DB" portable_drop.sql
expect "schema ulid_portable gone" "$(q "SELECT count(*) FROM pg_namespace WHERE nspname = 'ulid_portable'")" -eq 0
expect_str "rows and defaults after the drop" \
    "$(q "SELECT count(*) FROM customers")|$(q "SELECT count(*) FROM orders")|$(q "SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'customers'::regclass")" \
    "2001|6000|gen_ulid()"

echo
echo "# up, the parent first: customers move to ulid, orders keep uuid ($RECIPES/migrate_parent_first.sql)"
PF="${DB}_parent_first"
must "database $PF with the portable edition and the native extension" bash -c "
    psql -X -q -d postgres -c 'CREATE DATABASE \"$PF\"' &&
    psql -X -q -v ON_ERROR_STOP=1 -d '$PF' -f '$PORTABLE' && psql -X -q -d '$PF' -c 'CREATE EXTENSION ulid'"
must "uuid tables keyed by ulid_portable.gen_ulid(): 2000 customers, 6000 orders" schema "$PF" uuid "ulid_portable.gen_ulid()"
must "snapshot of every key's bytes" qd "$PF" "CREATE TABLE snap AS SELECT name, id AS id_uuid FROM customers;
    CREATE TABLE snap_o AS SELECT note, id, customer_id FROM orders"
must "migrate_parent_first.sql runs" recipe "$PF" migrate_parent_first.sql
expect_str "column types customers.id, orders.id, orders.customer_id" "$(types "$PF")" "ulid,uuid,uuid"
expect "tables rewritten (relfilenode changed)" "$(unchanged_files "$PF")" -eq 0
expect "customer keys whose bytes or portable text changed (of 2000)" \
    "$(qd "$PF" "SELECT count(*) FROM customers c FULL JOIN snap s USING (name)
                 WHERE c.id IS DISTINCT FROM s.id_uuid OR c.id::text IS DISTINCT FROM ulid_portable.ulid_encode(s.id_uuid)")" -eq 0
expect "orders untouched (of 6000)" \
    "$(qd "$PF" "SELECT count(*) FROM orders o JOIN snap_o s USING (note) WHERE o.id = s.id AND o.customer_id = s.customer_id")" -eq 6000
expect_str "the foreign key, re-created on ulid = uuid, validated" \
    "$(qd "$PF" "SELECT pg_get_constraintdef(oid) || ' valid=' || convalidated FROM pg_constraint WHERE conname = 'orders_customer_id_fkey'")" \
    "FOREIGN KEY (customer_id) REFERENCES customers(id) ON DELETE CASCADE valid=true"
expect_str "orders.customer_id indexed in ulid's family" \
    "$(qd "$PF" "SELECT string_agg(c.opcname, ',') FROM pg_index i JOIN pg_opclass c ON c.oid = i.indclass[0]
                 WHERE i.indrelid = 'orders'::regclass AND i.indkey[0] = 2 AND i.indisvalid")" "uuid_ulid_ops"
expect_contains "an order for a missing customer is refused" \
    "$(qd "$PF" "INSERT INTO orders (customer_id, note) VALUES ('00000000-0000-0000-0000-000000000001', 'orphan')" 2>&1)" \
    'violates foreign key constraint "orders_customer_id_fkey"'
expect_str "the application unchanged: uuid-typed lookups of customers, orders by customer, a join" \
    "$(qs "$PF" "PREPARE c(uuid) AS SELECT name FROM customers WHERE id = \$1;
                 EXECUTE c('$(qd "$PF" "SELECT id_uuid FROM snap WHERE name = 'customer 7'")');
                 SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.name = 'customer 7'" | tr '\n' ' ')" \
    "customer 7 3 "
expect_str "new customers from gen_ulid(), new orders reference them as uuid, deleting cascades" \
    "$(qs "$PF" "INSERT INTO customers (name) VALUES ('native customer');
                 INSERT INTO orders (customer_id, note) SELECT id, 'native order' FROM customers WHERE name = 'native customer';
                 SELECT (SELECT id FROM customers WHERE name = 'native customer') > (SELECT id_uuid FROM snap ORDER BY id_uuid DESC LIMIT 1);
                 DELETE FROM customers WHERE name IN ('native customer', 'customer 8');
                 SELECT count(*) FROM orders WHERE note IN ('native order') OR note LIKE 'customer 8 order %'" | tr '\n' ' ')" \
    "t 0 "
qd postgres "DROP DATABASE \"$PF\"" >/dev/null

echo
echo "# down: native -> portable, pg_dump/pg_restore into a database without the extension"
must "source database with the native extension" qd postgres "CREATE DATABASE \"$SRC\""
must "target database without it" qd postgres "CREATE DATABASE \"$DST\""
must "native tables keyed by gen_ulid(): 2000 customers, 6000 orders" \
    bash -c "$(declare -f qd schema); qd '$SRC' 'CREATE EXTENSION ulid' && schema '$SRC' ulid 'gen_ulid()'"
must "snapshot of the native text and bytes" qd "$SRC" "
    CREATE TABLE snap AS SELECT 'c ' || name AS k, id::text AS id_text, ulid_send(id) AS id_bytes FROM customers
    UNION ALL SELECT 'o ' || note, id::text || customer_id::text, ulid_send(id) || ulid_send(customer_id) FROM orders"
qd "$SRC" "COPY snap TO STDOUT" | sort >"$WORK/snap.txt"
must "portable edition installed next to the extension" psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -f "$PORTABLE"
must "native_to_portable.sql runs" recipe "$SRC" native_to_portable.sql
expect_str "source column types" "$(types "$SRC")" "uuid,uuid,uuid"
expect "source tables rewritten (relfilenode changed)" "$(unchanged_files "$SRC")" -eq 0
must "drop the snapshot helpers (not part of the move)" qd "$SRC" "DROP TABLE snap, filenodes"
out="$(export DUMP_FILE="$WORK/app.dump" SOURCE_DB="$SRC" TARGET_DB="$DST"
    PATH="$BINDIR:$PATH" bash -euo pipefail "$RECIPES/portable_dump_restore.sh" 2>&1)"
rc=$?
expect "portable_dump_restore.sh exit status (pg_restore --exit-on-error)" "$rc" -eq 0
expect_str "its output (no error, no warning)" "$out" ""
expect_str "target: extensions installed" "$(qd "$DST" "SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension")" "plpgsql"
expect_str "target column types" "$(types "$DST")" "uuid,uuid,uuid"
qd "$DST" "COPY (SELECT 'c ' || name, ulid_portable.ulid_encode(id), uuid_send(id) FROM customers
                 UNION ALL SELECT 'o ' || note, ulid_portable.ulid_encode(id) || ulid_portable.ulid_encode(customer_id),
                                  uuid_send(id) || uuid_send(customer_id) FROM orders) TO STDOUT" | sort >"$WORK/restored.txt"
expect "restored rows (2000 + 6000)" "$(wc -l <"$WORK/restored.txt")" -eq 8000
if cmp -s "$WORK/snap.txt" "$WORK/restored.txt"; then
    ok "every key: the same bytes, and ulid_portable.ulid_encode() gives the native 26 characters"
else
    bad "keys differ: $(diff "$WORK/snap.txt" "$WORK/restored.txt" | head -4 | tr '\n' ' ')"
fi
fk_checks "down" "$DST" uuid
expect_str "target defaults" \
    "$(qd "$DST" "SELECT string_agg(pg_get_expr(adbin, adrelid), ',' ORDER BY adrelid::regclass::text) FROM pg_attrdef")" \
    "ulid_portable.gen_ulid(),ulid_portable.gen_ulid()"
expect_str "new rows in the target: DEFAULT ulid_portable.gen_ulid() above every restored key" \
    "$(qd "$DST" "WITH c AS (INSERT INTO customers (name) VALUES ('portable customer') RETURNING id)
                  SELECT (SELECT id FROM c) > (SELECT id FROM customers ORDER BY id DESC LIMIT 1)")" t

checks_summary
