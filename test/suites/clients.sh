#!/usr/bin/env bash
# Clients: the real drivers and ORMs against the server, each running the recipes in clients/
# (docs/clients-*.md quote them; packaging.sh checks the quotes).
#
# For each driver (psycopg 3, psycopg2, asyncpg, pgjdbc, pgx v4, ruby-pg, node-postgres, tokio-postgres):
# gen_ulid() as the 26-character string in text mode and, after the recipe's one-time registration, in the
# driver's binary mode (where it has one); ulid parameters as strings, and as 16 bytes or the
# driver's uuid type where it sends binary; ulid[] both ways; NULL both ways; COPY text and binary
# (where the driver offers it; asyncpg's copy_records_to_table through the docs' codec); a time
# range with ulid_min/ulid_max bounds as parameters; a bad string as the driver's error with SQLSTATE
# 22P02. For each ORM (SQLAlchemy, Django with its migration, ActiveRecord with its migration and the
# schema.rb round trip, Drizzle with drizzle-kit's migration, TypeORM and Sequelize with their schema
# sync, Kysely with its Migrator, Prisma Client with the pg driver adapter and the recipe's migration):
# the schema from the ORM with a ulid primary key defaulting to gen_ulid() on the server, inserts,
# reads, a foreign key or parent column, ulid[], a bulk insert, a time range and a bad string. Prisma's
# CLI downloads its schema engine first: the check shows where that stops it offline.
# Each program prints its own ok/FAIL lines; this suite passes them through, counts them, and fails
# when a program fails, prints a FAIL, or prints no ok at all.
#
# Needs the Debian packages in ULID_CLIENT_PACKAGES (scripts/lib/common.sh; installed here when missing)
# and the npm registry for clients/node/package-lock.json, installed once into a cache outside the
# checkout (ULID_CLIENTS_CACHE, default /var/cache/ulid-clients, else ~/.cache/ulid-clients; Go's
# build cache and the Rust build live there too: built once, reused by every major). Uses only the
# PG* environment: any server major works.
# Tier: clients (drivers and ORMs (scripts/test --tier clients))
set -uo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." || exit 1
source scripts/lib/common.sh
set +e
source test/lib/checks.sh
suite_exit_on_signals

ROOT="$PWD"
WORK="$(mktemp -d -t ulid-clients.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
CLIENT_TIMEOUT="${ULID_CLIENT_TIMEOUT:-180}" # seconds per program: a bound, not an assertion
PY=/usr/bin/python3                          # Debian's python3, which has Debian's python3-* modules
JDBC_JAR=/usr/share/java/postgresql.jar
CACHE="${ULID_CLIENTS_CACHE:-/var/cache/ulid-clients}"
if ! mkdir -p "$CACHE" 2>/dev/null || [[ ! -w $CACHE ]]; then
    CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/ulid-clients"
    mkdir -p "$CACHE"
fi
export PYTHONDONTWRITEBYTECODE=1 # nothing written into the checkout

q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 <<<"$1"; } # (stdin: psql < 15 shows only the last result of -c)

echo "# setup"
must "client packages (ULID_CLIENT_PACKAGES)" ulid_ensure_packages "${ULID_CLIENT_PACKAGES[@]}"
if ! command -v npm >/dev/null 2>&1; then
    must "npm (Debian's, next to Debian's nodejs)" ulid_ensure_packages npm
fi
must "extension ulid in database $PGDATABASE" q "CREATE EXTENSION IF NOT EXISTS ulid"
note "$(q 'SELECT version()')"
note "ulid $(q "SELECT extversion FROM pg_extension WHERE extname = 'ulid'"), cache $CACHE"

# npm packages of clients/node/package-lock.json, once per lock file, into the cache
npm_modules() {
    local lock dir tmp
    lock="$(sha256sum clients/node/package-lock.json | cut -c1-16)"
    dir="$CACHE/npm/$lock"
    NODE_MODULES="$dir/node_modules"
    [[ -f $dir/.complete ]] && return 0
    tmp="$(mktemp -d "$CACHE/npm/.install.XXXXXX")" || return
    if cp clients/node/package.json clients/node/package-lock.json "$tmp/" &&
        (cd "$tmp" && ulid_timeout 600 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error \
            --cache "$CACHE/npm-cache") &&
        touch "$tmp/.complete" && rm -rf "$dir" && mv "$tmp" "$dir"; then
        return 0
    fi
    rm -rf "$tmp"
    return 1
}
mkdir -p "$CACHE/npm"
start=$SECONDS
must "npm ci of clients/node/package-lock.json (cached)" npm_modules
note "node_modules: $NODE_MODULES ($((SECONDS - start)) s)"

# run_client NAME DIR CMD...: run CMD in DIR with search_path client_NAME,public (a schema of its
# own, made fresh), pass its ok/FAIL lines through (other output as notes) and count them
run_client() {
    local name="$1" dir="$2" start rc=0 oks fails out="$WORK/$1.out"
    shift 2
    echo
    echo "# $name"
    q "DROP SCHEMA IF EXISTS client_$name CASCADE; CREATE SCHEMA client_$name" ||
        { bad "$name: could not make schema client_$name"; return; }
    start=$SECONDS
    (cd "$dir" && PGOPTIONS="-c search_path=client_$name,public" ulid_timeout "$CLIENT_TIMEOUT" "$@") \
        >"$out" 2>&1 </dev/null || rc=$?
    sed -E '/^(ok  |FAIL|#)/!s/^/#   /' "$out"
    oks="$(grep -c '^ok   ' "$out")"
    fails="$(grep -c '^FAIL ' "$out")"
    CHECKS=$((CHECKS + oks + fails))
    VIOLATIONS=$((VIOLATIONS + fails))
    if ((rc == 0 && fails == 0 && oks > 0)); then
        ok "$name: $oks checks passed (exit 0, $((SECONDS - start)) s)"
    else
        bad "$name: exit $rc, $oks ok, $fails FAIL ($((SECONDS - start)) s)"
    fi
}

# the Go programs, built offline from Debian's Go sources (GOPATH mode; ulidclients -> clients/go)
go_build() {
    mkdir -p "$WORK/gopath/src" && ln -s "$ROOT/clients/go" "$WORK/gopath/src/ulidclients" &&
        (cd "$WORK/gopath/src/ulidclients" &&
            env GO111MODULE=off GOPATH="$WORK/gopath:/usr/share/gocode" GOPROXY=off GOFLAGS= \
                GOCACHE="$CACHE/go-build" go build -o "$WORK/bin/" ./check ./example)
}
# the Rust programs, built offline by Debian's cargo and rustc against Debian's crate registry (crates-io
# replaced by /usr/share/cargo/registry) in the cache: a copy of clients/rust at a fixed path (cargo writes
# Cargo.lock beside Cargo.toml; the path keeps the build reusable), one target directory for every
# major and run, no debug info (a third less to compile); a lock keeps concurrent runs apart
cargo_build() {
    local dir="$CACHE/rust"
    mkdir -p "$dir/home" || return
    (
        flock 9 || exit
        printf '%s\n' '[source.crates-io]' 'replace-with = "debian"' '[source.debian]' \
            'directory = "/usr/share/cargo/registry"' '[net]' 'offline = true' >"$dir/home/config.toml" &&
            rm -rf "$dir/src" && cp -rp clients/rust "$dir/src" &&
            cd "$dir/src" && ulid_timeout 1200 env CARGO_HOME="$dir/home" CARGO_TARGET_DIR="$dir/target" \
            CARGO_PROFILE_DEV_DEBUG=0 RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc \
            /usr/bin/cargo build --offline -q -j2 --bins --examples
    ) 9>"$dir/.lock" || return
    RUST_BIN="$dir/target/debug"
}
java_build() { javac -d "$WORK/java" -cp "$JDBC_JAR" clients/java/UlidJdbc.java clients/java/CheckJdbc.java; }
node_dir() { # the node programs beside the cached node_modules (ES modules resolve from their own path)
    mkdir -p "$WORK/node" && cp -r clients/node/. "$WORK/node/" && ln -sfn "$NODE_MODULES" "$WORK/node/node_modules"
}

run_client psycopg clients/python "$PY" check_psycopg.py
run_client psycopg2 clients/python "$PY" check_psycopg2.py
run_client asyncpg clients/python "$PY" check_asyncpg.py
run_client sqlalchemy clients/python "$PY" check_sqlalchemy.py
run_client django clients/python "$PY" check_django.py
start=$SECONDS
if java_build; then
    ok "javac UlidJdbc.java CheckJdbc.java ($((SECONDS - start)) s)"
    run_client pgjdbc clients/java java -cp "$JDBC_JAR:$WORK/java" CheckJdbc
else
    bad "javac UlidJdbc.java CheckJdbc.java"
fi
start=$SECONDS
if go_build; then
    ok "go build (GOPATH mode, GOPROXY=off) of clients/go/check and clients/go/example ($((SECONDS - start)) s)"
    run_client pgx clients/go "$WORK/bin/check"
    # shellcheck disable=SC2016 # expanded by the inner bash
    run_client pgx_example clients/go bash -c 'out="$("$1")"; [[ $out == "26 1" ]] &&
        echo "ok   pgx: the example prints 26 1" || { echo "FAIL pgx: the example printed [$out]"; exit 1; }' \
        example "$WORK/bin/example"
else
    bad "go build of clients/go"
fi
run_client ruby_pg clients/ruby ruby check_ruby_pg.rb
run_client activerecord clients/ruby ruby check_activerecord.rb
if must "the node programs beside node_modules" node_dir; then
    run_client node_postgres "$WORK/node" node check_pg.js
    run_client drizzle "$WORK/node" node check_drizzle.js
    run_client typeorm "$WORK/node" node check_typeorm.js
    run_client sequelize "$WORK/node" node check_sequelize.js
    run_client kysely "$WORK/node" node check_kysely.js
    run_client prisma "$WORK/node" node check_prisma.js
fi
start=$SECONDS
if cargo_build; then
    ok "cargo build (Debian's cargo and crates, offline) of clients/rust ($((SECONDS - start)) s)"
    run_client tokio_postgres clients/rust "$RUST_BIN/check"
    # shellcheck disable=SC2016 # expanded by the inner bash
    run_client tokio_postgres_example clients/rust bash -c 'out="$("$1")"; [[ $out == "26 true 1 true" ]] &&
        echo "ok   tokio-postgres: the example prints 26 true 1 true" ||
        { echo "FAIL tokio-postgres: the example printed [$out]"; exit 1; }' example "$RUST_BIN/examples/ulid_recipe"
else
    bad "cargo build of clients/rust ($((SECONDS - start)) s)"
fi

checks_summary
