#!/usr/bin/env bash
# Public ids with the key held by the server (ulid_encrypt(ulid), ulid_decrypt(ulid) and the setting
# ulid.public_id_key), on a cluster of its own that preloads ulid and reads the key from a file that
# postgresql.conf includes (mode 0600, as docs/public-ids.md says), and a test-only build without
# OpenSSL.
#
#   - the server-key forms agree with the key-argument forms and round-trip;
#   - a role granted EXECUTE uses the key and cannot read it (SHOW, current_setting, pg_settings:
#     42501 or no row); a role without the grant gets 42501 from the functions; a member of
#     pg_read_all_settings reads it; SET, ALTER ROLE/DATABASE SET and ALTER SYSTEM are refused;
#   - with log_statement = all, a view over ulid_encrypt(id) and pg_stat_statements (where its
#     library is installed), the key's digits appear in no log line, view definition or statement;
#   - the key changes at a restart only (a reload would log a changed value): a reload keeps the
#     key in force; a bad value at a restart is logged without the value, and leaves no key (55000);
#     a new key changes every public id (a rotation); an empty key: 55000;
#   - a test-only build as on a server built without OpenSSL (make ULID_TEST_NO_OPENSSL=1): the
#     library loads and both functions raise 0A000; the installed ulid.so needs no libcrypto.
# Needs nothing from the caller's PG* environment but PG_CONFIG.
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source-path=SCRIPTDIR source=../lib/checks.sh
source "$here/../lib/checks.sh"
suite_isolate_env
# shellcheck source-path=SCRIPTDIR source=../lib/cluster.sh
source "$here/../lib/cluster.sh"
cd "$here/../.."
T0=$SECONDS

PG_CONFIG="${PG_CONFIG:-pg_config}"
WORK="$(mktemp -d -t ulid-public-ids.XXXXXX)"
chmod 755 "$WORK" # the server's OS user loads the test-only library from here
prev_trap="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
# shellcheck disable=SC2064 # expand now, on purpose
trap "rm -rf '$WORK'; $prev_trap" EXIT

KEY1="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
KEY2="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
OTHER="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')" # for the statements that must be refused
q() { cluster_psql keys -d postgres -At <<<"$1"; }
# qk SQL: as q, for the suite's own statements that name a key (to compare with the server's): not
# logged, so that the log holds only what the documented usage sends
qk() { cluster_psql keys -d postgres -At <<<"SET log_statement = 'none'; SET log_min_error_statement = 'panic'; $1"; }
as() { # ROLE SQL: the statement as ROLE, its output and error text
    cluster_psql keys -d postgres -At -U "$1" -v ON_ERROR_STOP=1 -v VERBOSITY=verbose <<<"$2" 2>&1 || true
}
# the key file of the docs: one line, readable by the server's OS user only
write_key() {
    local conf
    conf="$(cluster_dir keys)/ulid_key.conf"
    printf "ulid.public_id_key = '%s'\n" "$1" >"$conf"
    chmod 600 "$conf"
    chown --reference="$(cluster_dir keys)/postgresql.conf" "$conf"
}

echo "# a cluster that preloads ulid and includes the key file"
cluster_init keys
pss=""
if [[ -f "$("$PG_CONFIG" --pkglibdir)/pg_stat_statements.so" ]]; then pss=",pg_stat_statements"; fi
cluster_conf keys "shared_preload_libraries = 'ulid$pss'" "log_statement = 'all'" \
    "log_min_error_statement = 'debug5'" "include_if_exists = 'ulid_key.conf'"
write_key "$KEY1"
must "cluster starts" cluster_start keys
note "$(q 'SELECT version()')"
must "extension, roles app (EXECUTE granted), nobody, reader (pg_read_all_settings), a table" q "
    CREATE EXTENSION ulid;
    CREATE ROLE app LOGIN; CREATE ROLE nobody LOGIN; CREATE ROLE reader LOGIN;
    GRANT pg_read_all_settings TO reader;
    GRANT EXECUTE ON FUNCTION ulid_encrypt(ulid), ulid_decrypt(ulid) TO app;
    CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int);
    INSERT INTO orders (n) SELECT i FROM generate_series(1, 1000) i;
    GRANT SELECT ON orders TO app, nobody, reader"
if [[ -n $pss ]]; then must "pg_stat_statements" q "CREATE EXTENSION pg_stat_statements"; fi

echo "# the server-held key"
expect_str "ulid_encrypt(id) = ulid_encrypt(id, key of the file); round trips (1,000 ids)" \
    "$(qk "SELECT count(*) FILTER (WHERE ulid_encrypt(id) = ulid_encrypt(id, decode('$KEY1', 'hex')))
                 || ' ' || count(*) FILTER (WHERE ulid_decrypt(ulid_encrypt(id)) = id) FROM orders")" "1000 1000"
expect_str "app: encrypts, decrypts, and finds a row by its public id" \
    "$(as app "SELECT count(*) FROM orders o WHERE o.id = ulid_decrypt((SELECT ulid_encrypt(id) FROM orders WHERE n = 7))")" "1"
for r in app nobody; do
    expect_match "$r: SHOW ulid.public_id_key is refused (42501)" "$(as $r "SHOW ulid.public_id_key")" \
        '^ERROR:  42501: .* to examine "ulid.public_id_key"'
    expect_match "$r: current_setting() is refused (42501)" "$(as $r "SELECT current_setting('ulid.public_id_key')")" \
        '^ERROR:  42501: .* to examine "ulid.public_id_key"'
    expect_str "$r: pg_settings has no row of it" \
        "$(as $r "SELECT count(*) FROM pg_settings WHERE name = 'ulid.public_id_key'")" 0
done
expect_contains "nobody: ulid_encrypt(id) is refused (no EXECUTE)" \
    "$(as nobody "SELECT ulid_encrypt(id) FROM orders LIMIT 1")" "permission denied for function ulid_encrypt"
expect_contains "nobody: ulid_decrypt(id) is refused" \
    "$(as nobody "SELECT ulid_decrypt(id) FROM orders LIMIT 1")" "permission denied for function ulid_decrypt"
expect_str "reader (pg_read_all_settings): reads the key" "$(as reader "SHOW ulid.public_id_key")" "$KEY1"
expect_contains "reader: but cannot use it without EXECUTE" \
    "$(as reader "SELECT ulid_encrypt(id) FROM orders LIMIT 1")" "permission denied for function ulid_encrypt"
expect_contains "SET is refused (55P02: set in the server's files only)" \
    "$(as app "SET ulid.public_id_key = '$OTHER'")" "cannot be changed"
expect_contains "ALTER ROLE ... SET is refused (the value would be in pg_db_role_setting, which every role reads)" \
    "$(q "ALTER ROLE app SET ulid.public_id_key = '$OTHER'" 2>&1 || true)" "cannot be changed"
expect_contains "ALTER DATABASE ... SET is refused" \
    "$(q "ALTER DATABASE postgres SET ulid.public_id_key = '$OTHER'" 2>&1 || true)" "cannot be changed"
expect_contains "ALTER SYSTEM is refused (the statement would carry the key)" \
    "$(q "ALTER SYSTEM SET ulid.public_id_key = '$OTHER'" 2>&1 || true)" "cannot be changed"
expect_str "pg_db_role_setting holds no key" "$(q "SELECT count(*) FROM pg_db_role_setting WHERE array_to_string(setconfig, ' ') ~ 'public_id_key'")" 0

echo "# where the key does not appear"
must "a view of public ids, used" q "
    CREATE VIEW public_orders AS SELECT ulid_encrypt(id) AS public_id, n FROM orders;
    GRANT SELECT ON public_orders TO app"
expect_str "app reads the view" "$(as app "SELECT count(DISTINCT public_id) FROM public_orders")" 1000
expect_str "the view's definition has no key" "$(qk "SELECT pg_get_viewdef('public_orders') ~* '$KEY1'")" f
if [[ -n $pss ]]; then
    expect_str "pg_stat_statements: statements with ulid_encrypt, none with the key" \
        "$(qk "SELECT count(*) FILTER (WHERE query ~ 'ulid_encrypt') > 0, count(*) FILTER (WHERE query ~* '$KEY1')
              FROM pg_stat_statements" | tr '|' ' ')" "t 0"
else
    note "pg_stat_statements is not installed for this server: that check is left out"
fi

echo "# the key changes at a restart only: a reload, a bad value, a new key, no key"
before="$(q "SELECT ulid_encrypt(id) FROM orders WHERE n = 1")"
write_key "$KEY2"
must "a new key in the file, then a reload" q "SELECT pg_reload_conf()"
sleep 1
expect_contains "the reload logs that the setting needs a restart" "$(cat "$(cluster_log keys)")" \
    "parameter \"ulid.public_id_key\" cannot be changed without restarting the server"
expect_str "... and the key in force stays (same public id)" "$(q "SELECT ulid_encrypt(id) FROM orders WHERE n = 1")" "$before"
BAD="${KEY2}zz"
write_key "$BAD"
must "a bad value in the file, then a restart" cluster_restart keys
expect_contains "the server starts and logs a message that names the setting" "$(cat "$(cluster_log keys)")" \
    "invalid value for parameter \"ulid.public_id_key\" (the value is not shown)"
expect_str "... without the bad value" "$(grep -c "$BAD" "$(cluster_log keys)" || true)" 0
expect_contains "... and no key is in force: 55000" "$(as app "SELECT ulid_encrypt(id) FROM orders LIMIT 1")" \
    "55000: ulid.public_id_key is not set"
write_key "$KEY2"
must "a new key (AES-128), then a restart" cluster_restart keys
expect_str "a rotation: every public id changes, and the new key is the one used" \
    "$(qk "SELECT count(*) FILTER (WHERE ulid_encrypt(id) = ulid_encrypt(id, decode('$KEY1', 'hex')))
                 || ' ' || count(*) FILTER (WHERE ulid_encrypt(id) = ulid_encrypt(id, decode('$KEY2', 'hex'))) FROM orders")" "0 1000"
expect_str "an old public id still found during a rotation: decrypt with each key, one probe each" \
    "$(qk "SELECT count(*) FROM orders o
          WHERE o.id IN (ulid_decrypt('$before'), ulid_decrypt('$before'::ulid, decode('$KEY1', 'hex')))")" 1
write_key ""
must "no key, then a restart" cluster_restart keys
expect_contains "no key: 55000" "$(as app "SELECT ulid_encrypt(id) FROM orders LIMIT 1")" \
    "55000: ulid.public_id_key is not set"
for k in "$KEY1" "$KEY2"; do
    expect_str "the key's digits in the server log" "$(grep -ci "$k" "$(cluster_log keys)" || true)" 0
done

echo "# a server without OpenSSL (the test-only build of make ULID_TEST_NO_OPENSSL=1)"
scratch_tree "$WORK/tree"
must "make ULID_TEST_NO_OPENSSL=1 in a scratch copy" \
    make -s -C "$WORK/tree" -j2 ULID_TEST_NO_OPENSSL=1 with_llvm=no PG_CONFIG="$PG_CONFIG"
lib="$WORK/tree/ulid_test_no_openssl.so"
if make -s -C "$WORK/tree" ULID_TEST_NO_OPENSSL=1 with_llvm=no PG_CONFIG="$PG_CONFIG" install DESTDIR="$WORK/dest" >/dev/null 2>&1; then
    bad "make install of the test-only build was not refused"
else
    ok "make install of the test-only build is refused"
fi
must "its ulid_encrypt and ulid_decrypt as test functions" q "
    CREATE SCHEMA no_ssl;
    CREATE FUNCTION no_ssl.encrypt(ulid, bytea) RETURNS ulid AS '$lib', 'ulid_encrypt' LANGUAGE C STRICT;
    CREATE FUNCTION no_ssl.decrypt(ulid, bytea) RETURNS ulid AS '$lib', 'ulid_decrypt' LANGUAGE C STRICT"
out="$(cluster_psql keys -d postgres -At -v ON_ERROR_STOP=0 2>&1 <<'SQL' || true
\set VERBOSITY verbose
SELECT no_ssl.encrypt(gen_ulid(), '\x000102030405060708090a0b0c0d0e0f');
SELECT no_ssl.decrypt(gen_ulid(), '\x000102030405060708090a0b0c0d0e0f');
SELECT no_ssl.encrypt(gen_ulid(), '\x00');
SELECT 'loaded, and the backend carries on';
SQL
)"
expect_str "encrypt and decrypt: 0A000 (the build says it has no OpenSSL)" \
    "$(grep -c '^ERROR:  0A000: ulid_encrypt() and ulid_decrypt() need OpenSSL' <<<"$out")" 2
expect_contains "... with the DETAIL" "$out" "DETAIL:  This server was built without OpenSSL."
expect_contains "a bad key length is still 22023 there" "$out" "ERROR:  22023: ulid key must be 16 or 32 bytes"
expect_contains "the session goes on" "$out" "loaded, and the backend carries on"
normal_so="$("$PG_CONFIG" --pkglibdir)/ulid.so"
expect_str "the installed ulid.so needs no libcrypto or libssl (objdump -p NEEDED)" \
    "$(objdump -p "$normal_so" | awk '$1 == "NEEDED"' | grep -c 'libcrypto\|libssl' || true)" 0
expect_str "... its OpenSSL functions are weak references (bound to the server's, if any)" \
    "$(nm -D "$normal_so" | awk '$1 == "w" && $2 ~ /^EVP_/' | wc -l)" 9

note "took $((SECONDS - T0)) s"
checks_summary
