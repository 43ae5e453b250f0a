#!/usr/bin/env bash
# A uuid column referencing a ulid key (0.3.0): the statements PostgreSQL's referential triggers run,
# with the plans auto_explain reports for them (auto_explain.log_nested_statements, NOTICE level):
#   - inserting a child looks the parent up through the ulid primary key;
#   - deleting a parent (ON DELETE CASCADE and NO ACTION) and changing its key (ON UPDATE CASCADE)
#     find the children through the child's uuid_ulid_ops index; with only core's uuid_ops index on
#     the child they cannot (a sequential scan), which is why the class exists;
#   - the rows are right in every case (cascaded, refused with 23503, updated).
# And the order docs/migrating.md gives: a ulid column cannot reference a uuid key (42804: core's
# uuid family does not know ulid, and the extension does not alter core's objects).
# Runs in the throwaway cluster of scripts/test (a superuser; auto_explain from contrib). About 3 s.
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source test/lib/checks.sh
T0=$SECONDS
export PGOPTIONS="-c client_min_messages=warning"
q() { psql -X -q -At -v ON_ERROR_STOP=1 <<<"$1"; }
# plans SQL: run SQL with auto_explain on for nested statements; print the NOTICE lines (plans)
plans() {
    PGOPTIONS="-c client_min_messages=notice" psql -X -At -v ON_ERROR_STOP=1 2>&1 >/dev/null <<SQL
LOAD 'auto_explain';
SET auto_explain.log_min_duration = 0;
SET auto_explain.log_nested_statements = on;
SET auto_explain.log_level = notice;
$1
SQL
}
# child_lookup PLANS: the plan line that reads the children in a referential statement
child_lookup() {
    awk '/Query Text: .*"fk_orders"/ { p = 1; next } /Query Text:/ { p = 0 }
         p && /(Index Scan using|Index Only Scan using|Bitmap Index Scan on|Seq Scan on)/' <<<"$1" |
        head -n 1 | sed 's/  (cost=.*//; s/^ *//; s/^-> *//'
}

must "extension" q "CREATE EXTENSION IF NOT EXISTS ulid"
must "parents (ulid key) and orders (uuid reference, ON DELETE CASCADE ON UPDATE CASCADE) with a uuid_ulid_ops index" q "
    CREATE TABLE fk_parent (id ulid PRIMARY KEY);
    CREATE TABLE fk_orders (id ulid PRIMARY KEY DEFAULT gen_ulid(),
                            parent_id uuid NOT NULL REFERENCES fk_parent ON DELETE CASCADE ON UPDATE CASCADE);
    CREATE INDEX fk_orders_parent ON fk_orders (parent_id uuid_ulid_ops);
    INSERT INTO fk_parent SELECT md5(i::text)::uuid FROM generate_series(1, 2000) i;
    INSERT INTO fk_orders (parent_id) SELECT p.id FROM fk_parent p, generate_series(1, 20);
    VACUUM ANALYZE fk_parent, fk_orders;"

echo "# inserting a child: the parent through its ulid key"
# 19 checks a new child's key without a query (no plan to show): the index's scan count in the
# inserting transaction tells on every major (the insert itself names the key by a constant)
expect_str "the check scans fk_parent_pkey once" "$(q "BEGIN;
    INSERT INTO fk_orders (parent_id) VALUES (md5('1')::uuid);
    SELECT pg_stat_get_xact_numscans('fk_parent_pkey'::regclass);
    ROLLBACK;")" 1
if (($(q "SHOW server_version_num") < 190000)); then
    out="$(plans "INSERT INTO fk_orders (parent_id) SELECT id FROM fk_parent ORDER BY id LIMIT 1;")"
    expect_match "the check reads fk_parent through fk_parent_pkey" \
        "$(awk '/Query Text: .*"fk_parent"/ { p = 1; next } /Query Text:/ { p = 0 } p && /Scan (on|using)/' <<<"$out" | head -n 1)" \
        'Index (Only )?Scan using fk_parent_pkey on fk_parent'
fi
err="$(psql -X -At -c "INSERT INTO fk_orders (parent_id) VALUES ('00000000-0000-0000-0000-000000000001')" 2>&1 >/dev/null)"
expect_contains "an unknown parent is refused (23503)" "$err" 'violates foreign key constraint "fk_orders_parent_id_fkey"'

echo "# deleting a parent: the children through the uuid_ulid_ops index"
victim="$(q "SELECT id FROM fk_parent ORDER BY id LIMIT 1 OFFSET 10")"
out="$(plans "DELETE FROM fk_parent WHERE id = '$victim';")"
expect_match "ON DELETE CASCADE reads fk_orders through fk_orders_parent" "$(child_lookup "$out")" \
    '(Bitmap Index Scan on|Index Scan using) fk_orders_parent'
expect_str "its 20 orders are gone" "$(q "SELECT count(*) FROM fk_orders WHERE parent_id = '$victim'::ulid")" 0

echo "# changing a parent's key: ON UPDATE CASCADE, through the index"
old="$(q "SELECT id FROM fk_parent ORDER BY id LIMIT 1 OFFSET 20")"
out="$(plans "UPDATE fk_parent SET id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ' WHERE id = '$old';")"
expect_match "ON UPDATE CASCADE reads fk_orders through fk_orders_parent" "$(child_lookup "$out")" \
    '(Bitmap Index Scan on|Index Scan using) fk_orders_parent'
expect_str "its orders follow the new key" \
    "$(q "SELECT count(*) FILTER (WHERE parent_id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid) || '/' || count(*) FILTER (WHERE parent_id = '$old'::ulid) FROM fk_orders")" "20/0"

echo "# NO ACTION: the check finds the children through the index and refuses"
must "NO ACTION instead of CASCADE" q "ALTER TABLE fk_orders DROP CONSTRAINT fk_orders_parent_id_fkey,
    ADD CONSTRAINT fk_orders_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES fk_parent"
busy="$(q "SELECT id FROM fk_parent ORDER BY id LIMIT 1 OFFSET 30")"
out="$(plans "DELETE FROM fk_parent WHERE id = '$busy';" || true)"
expect_match "the NO ACTION check reads fk_orders through fk_orders_parent" "$(child_lookup "$out")" \
    '(Bitmap Index Scan on|Index Scan using) fk_orders_parent'
expect_contains "... and refuses (23503)" "$out" 'is still referenced from table "fk_orders"'

echo "# with only core's uuid_ops index on the child: no index for the ulid-typed lookup"
must "the child's index in core's uuid_ops instead" q "DROP INDEX fk_orders_parent; CREATE INDEX fk_orders_parent_core ON fk_orders (parent_id); ANALYZE fk_orders"
out="$(plans "DELETE FROM fk_parent WHERE id = '$busy';" || true)"
expect_match "the check then scans fk_orders sequentially" "$(child_lookup "$out")" 'Seq Scan on fk_orders'

echo "# the other direction is refused: a ulid column cannot reference a uuid key"
err="$(psql -X -At -c "CREATE TABLE fk_uuid_parent (id uuid PRIMARY KEY); CREATE TABLE fk_bad (p ulid REFERENCES fk_uuid_parent)" 2>&1 >/dev/null)"
expect_contains "ulid -> uuid key: 42804, incompatible types" "$err" 'foreign key constraint "fk_bad_p_fkey" cannot be implemented'

q "DROP TABLE IF EXISTS fk_orders, fk_parent, fk_uuid_parent, fk_bad" >/dev/null
note "took $((SECONDS - T0)) s"
checks_summary
