#!/usr/bin/env bash
# Restoring a dump where the extension is older than the source's (docs/upgrading.md, "Restoring a
# dump"). pg_dump writes CREATE EXTENSION IF NOT EXISTS ulid without a version, so a target whose
# ulid is older (here 0.2.1, as a server whose newest release is 0.2.1 makes it) keeps it, and the
# objects of a newer release fail: a uuid foreign key to a ulid key, an index on uuid_ulid_ops.
#   - psql with its defaults: the errors scroll by, psql exits 0, the table takes an orphan row;
#   - the documented restore (pg_restore --exit-on-error --single-transaction; psql -v
#     ON_ERROR_STOP=1 --single-transaction): a non-zero exit, and nothing restored;
#   - the whole recipe (test/suites/recipes/restore_safely.sh: the source's version first, then
#     that restore): the target at the source's version, every row, the foreign key and the index.
# Needs the PG* environment of a superuser on a server with this tree installed; creates and drops
# three databases next to PGDATABASE. Prints one line per check, exits non-zero on any violation.
set -euo pipefail
here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
started=$SECONDS

bindir="$("${PG_CONFIG:-pg_config}" --bindir)"
export PATH="$bindir:$PATH" # the recipe's psql, pg_dump and pg_restore are the major under test's
SRC="${PGDATABASE:?PGDATABASE must name the suite database}"
OLD=0.2.1
WORK="$(mktemp -d -t ulid-restore.XXXXXX)"
TARGETS=("${SRC}_defaults" "${SRC}_loud" "${SRC}_recipe")
cleanup() {
    local db
    for db in "${TARGETS[@]}"; do
        psql -X -q -d postgres -c 'SET client_min_messages = warning' -c "DROP DATABASE IF EXISTS \"$db\"" >/dev/null 2>&1 || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
q() { psql -X -qAt -v ON_ERROR_STOP=1 -d "$1" <<<"$2"; }

must "the source: customers keyed by ulid, orders referencing them by uuid with a uuid_ulid_ops index" q "$SRC" "
    CREATE EXTENSION IF NOT EXISTS ulid;
    CREATE TABLE customers (id ulid PRIMARY KEY DEFAULT gen_ulid(), name text NOT NULL);
    CREATE TABLE orders (id bigint PRIMARY KEY, customer_id uuid NOT NULL REFERENCES customers (id));
    CREATE INDEX orders_customer_id ON orders (customer_id uuid_ulid_ops);
    INSERT INTO customers (name) SELECT 'c' || g FROM generate_series(1, 100) g;
    INSERT INTO orders SELECT row_number() OVER (), id::uuid FROM customers, generate_series(1, 3)"
version="$(q "$SRC" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")"
note "source: ulid $version; targets start with ulid $OLD"
for db in "${TARGETS[@]}"; do
    psql -X -q -v ON_ERROR_STOP=1 -d postgres -c 'SET client_min_messages = warning' \
        -c "DROP DATABASE IF EXISTS \"$db\"" -c "CREATE DATABASE \"$db\" TEMPLATE template0" >/dev/null
    q "$db" "CREATE EXTENSION ulid VERSION '$OLD'"
done
orphan="INSERT INTO orders VALUES (0, '00000000-0000-0000-0000-000000000001')"

echo "# psql with its defaults"
pg_dump -d "$SRC" -f "$WORK/app.sql"
rc=0
psql -X -q -d "${TARGETS[0]}" -f "$WORK/app.sql" >"$WORK/defaults.out" 2>&1 || rc=$?
expect "psql's exit status" "$rc" -eq 0
expect "errors that scrolled by" "$(grep -c 'ERROR:' "$WORK/defaults.out" || true)" -gt 0
grep 'ERROR:' "$WORK/defaults.out" | sed 's/^/#   /'
expect_str "the table took an order of no customer" "$(q "${TARGETS[0]}" "$orphan; SELECT 'accepted'" 2>&1)" accepted

echo
echo "# the documented restore, without the version first"
pg_dump -Fc -d "$SRC" -f "$WORK/app.dump"
rc=0
pg_restore --exit-on-error --single-transaction -d "${TARGETS[1]}" "$WORK/app.dump" >"$WORK/loud.out" 2>&1 || rc=$?
expect "pg_restore --exit-on-error --single-transaction: exit status" "$rc" -ne 0
note "$(grep -m 1 'error' "$WORK/loud.out")"
expect_str "nothing restored (tables in the target)" \
    "$(q "${TARGETS[1]}" "SELECT count(*) FROM pg_class WHERE relname IN ('customers', 'orders')")" 0
rc=0
psql -X -q -v ON_ERROR_STOP=1 --single-transaction -d "${TARGETS[1]}" -f "$WORK/app.sql" >"$WORK/loud2.out" 2>&1 || rc=$?
expect "psql -v ON_ERROR_STOP=1 --single-transaction: exit status" "$rc" -ne 0
expect_str "nothing restored by psql either" \
    "$(q "${TARGETS[1]}" "SELECT count(*) FROM pg_class WHERE relname IN ('customers', 'orders')")" 0

echo
echo "# the recipe (recipes/restore_safely.sh): the version first, then the restore"
rc=0
(cd "$WORK" && SOURCE_DB="$SRC" TARGET_DB="${TARGETS[2]}" bash "$here/recipes/restore_safely.sh") >"$WORK/recipe.out" 2>&1 || rc=$?
expect "the recipe's exit status" "$rc" -eq 0
[[ $rc == 0 ]] || sed 's/^/#   /' "$WORK/recipe.out"
expect_str "the target's ulid" "$(q "${TARGETS[2]}" "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" "$version"
expect_str "every row (customers, orders)" \
    "$(q "${TARGETS[2]}" "SELECT (SELECT count(*) FROM customers) || ',' || (SELECT count(*) FROM orders)")" "100,300"
expect_str "the rows are the source's" \
    "$(q "${TARGETS[2]}" "SELECT md5(string_agg(id::text || customer_id::text, ',' ORDER BY id)) FROM orders")" \
    "$(q "$SRC" "SELECT md5(string_agg(id::text || customer_id::text, ',' ORDER BY id)) FROM orders")"
expect_contains "an order of no customer is refused" "$(q "${TARGETS[2]}" "$orphan" 2>&1 || true)" \
    'violates foreign key constraint "orders_customer_id_fkey"'
expect_str "the index on uuid_ulid_ops" \
    "$(q "${TARGETS[2]}" "SELECT c.opcname FROM pg_index i JOIN pg_opclass c ON c.oid = i.indclass[0]
                          WHERE i.indexrelid = 'orders_customer_id'::regclass")" uuid_ulid_ops

note "restore_older_release took $((SECONDS - started)) s"
checks_summary
