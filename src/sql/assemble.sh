#!/bin/sh
# src/sql/assemble.sh SRCDIR OUT: make one of the SQL scripts the Makefile lists in BUILT_SCRIPTS.
# src/sql/assemble.sh --list SRCDIR: print that list (the Makefile's BUILT_SCRIPTS), one name a
# line without ulid-- and .sql, derived from the bodies in SRCDIR/src/sql:
#   for each release V with a body: an update script from every release before it (0.1.0, 0.2.0,
#   the earlier bodies' releases; 0.3.0 alone was released with one from 0.2.1 only, the older
#   ones going through 0.2.1), V--V+refresh, V+refresh--V from 0.3.0 on (0.2.1's is committed, in
#   other words), and the install script V after 0.2.1 (0.2.1's is committed).
# So a release adds its body and nothing to any list; .gitignore ignores every ulid--*.sql but the
# committed ones.
#
# From release 0.2.1 on, each release V has one body, src/sql/update-to-V.sql: idempotent SQL that
# adds what V has and the extension lacks on this server. The scripts are concatenations of them:
#   ulid--A--B.sql          (an update, or B = V+refresh, the round trip after pg_upgrade):
#                           the bodies of every release up to B's version, oldest first;
#   ulid--V.sql (V > 0.2.1) the install script: ulid--0.2.1.sql (committed, released), then the
#                           bodies of the releases after 0.2.1 up to V.
# So a fresh install and every update end with the same objects, and no text is written twice.
# The body of 0.3.1 makes no object: it is the check that the extension holds only its own objects
# (it refuses with 42710 otherwise). It runs in its place in every script from 0.3.1 on, and every
# script of a later release ends with it once more, after that release's body.
# Output goes to OUT.tmp, then is renamed to OUT.
set -eu
# bodies SRCDIR: the versions that have a body, oldest first
bodies() { ls "$1"/src/sql/update-to-*.sql | sed 's/.*update-to-\(.*\)\.sql$/\1/' | sort -V; }
if [ "$1" = --list ]; then
    before="0.1.0 0.2.0"
    for v in $(bodies "$2"); do
        if [ "$v" = 0.3.0 ]; then froms=0.2.1; else froms="$before"; fi
        for f in $froms; do echo "$f--$v"; done
        echo "$v--$v+refresh"
        [ "$v" = 0.2.1 ] || echo "$v+refresh--$v"
        [ "$v" = 0.2.1 ] || echo "$v"
        before="$before $v"
    done
    exit 0
fi
srcdir="$1"
out="$2"
name="$(basename "$out" .sql)"
name="${name#ulid--}"
bodies="$(bodies "$srcdir")"
case "$name" in
*+refresh--*)
    v="${name#*--}"
    {
        printf '%s\n' "-- ulid $v+refresh -> $v: the way back of the refresh round trip (nothing to change)." "--" \
            "-- '$v+refresh' has exactly the objects of $v; ulid--$v--$v+refresh.sql (made by" \
            "-- src/sql/assemble.sh) did the work. This edge only brings the recorded version back to $v, so" \
            "-- that the next release's update scripts start from it (docs/upgrading.md)." "" \
            '\echo Use "ALTER EXTENSION ulid UPDATE" to load this file. \quit'
    } >"$out.tmp"
    mv "$out.tmp" "$out"
    exit 0
    ;;
*--*)
    from="${name%%--*}"
    to="${name#*--}"
    upto="${to%+refresh}"
    first=""
    header="-- ulid $from -> $to: made by the Makefile (src/sql/assemble.sh) from the bodies of every release up to $upto; do not edit."
    echo_line='\echo Use "ALTER EXTENSION ulid UPDATE" to load this file. \quit'
    ;;
*)
    upto="$name"
    first="$srcdir/ulid--0.2.1.sql"
    header="-- ulid $upto: made by the Makefile (src/sql/assemble.sh) from ulid--0.2.1.sql and the bodies of the releases after it up to $upto; do not edit."
    echo_line='\echo Use "CREATE EXTENSION ulid" to load this file. \quit'
    ;;
esac
echo "$bodies" | grep -qx "$upto" || { echo "assemble.sh: no src/sql/update-to-$upto.sql" >&2; exit 1; }
{
    printf '%s\n\n%s\n' "$header" "$echo_line"
    if [ -n "$first" ]; then
        printf '\n'
        sed '1,/^\\echo /d' "$first"
    fi
    for v in $bodies; do
        # an install script starts from 0.2.1's own text: only the bodies after it
        if [ -z "$first" ] || [ "$v" != 0.2.1 ]; then
            printf '\n'
            cat "$srcdir/src/sql/update-to-$v.sql"
        fi
        [ "$v" = "$upto" ] && break
    done
    if [ "$(printf '%s\n' 0.3.1 "$upto" | sort -V | tail -n 1)" != 0.3.1 ]; then
        printf '\n'
        cat "$srcdir/src/sql/update-to-0.3.1.sql"
    fi
} >"$out.tmp"
mv "$out.tmp" "$out"
