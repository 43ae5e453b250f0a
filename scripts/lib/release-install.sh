#!/bin/sh
# install.sh of a ulid release binary (scripts/package copies this file into every
# ulid-<version>-pg<major>-linux-<arch>.tar.gz): copies pkglibdir/ and sharedir/ of the archive into
# the directories that pg_config reports, after checking that the server is the archive's major.
#
#   ./install.sh [/path/to/pg_config]      default: $PG_CONFIG, else pg_config on PATH
#
# DESTDIR=/some/root ./install.sh stages the files under that directory instead (for packagers).
# Run it as the owner of the server's files (often root). Nothing is compiled.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
pg_config=${1:-${PG_CONFIG:-pg_config}}
destdir=${DESTDIR:-}

major=$(sed -n 's/^major=//p' "$here/README")
if ! version=$("$pg_config" --version 2>/dev/null); then
    echo "install.sh: cannot run $pg_config (give the server's pg_config: ./install.sh /path/to/pg_config)" >&2
    exit 1
fi
case "$version" in
"PostgreSQL $major."* | "PostgreSQL ${major}beta"* | "PostgreSQL ${major}rc"*) ;;
*)
    echo "install.sh: this archive is for PostgreSQL $major, but $pg_config is $version" >&2
    exit 1
    ;;
esac

pkglibdir=$("$pg_config" --pkglibdir)
sharedir=$("$pg_config" --sharedir)

# copy_tree FROM TO: every file under FROM to the same relative path under TO (libraries 755,
# everything else 644)
copy_tree() {
    (cd "$1" && find . -type f) | while IFS= read -r f; do
        f=${f#./}
        mkdir -p "$2/$(dirname "$f")"
        cp "$1/$f" "$2/$f"
        case "$f" in
        *.so) chmod 755 "$2/$f" ;;
        *) chmod 644 "$2/$f" ;;
        esac
        echo "  $2/$f"
    done
}

echo "install.sh: installing ulid for $version ($pg_config)"
copy_tree "$here/pkglibdir" "$destdir$pkglibdir"
copy_tree "$here/sharedir" "$destdir$sharedir"
echo "install.sh: done; now run CREATE EXTENSION ulid; in a database (or ALTER EXTENSION ulid UPDATE;)"
