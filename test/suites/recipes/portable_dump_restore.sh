# Recipe: after native_to_portable.sql, dump the database and restore it where the ulid extension
# is not installed, leaving out the two entries of the extension itself (its CREATE EXTENSION
# and its comment; nothing else depends on it any more, and anything that still did fails the
# restore by name). --no-owner/--no-acl suit a managed service, where the restoring role is not
# the source's owner. (pg_dump 17 and later can say --exclude-extension=ulid instead of the list.)
pg_dump --format=custom --no-owner --no-acl --file="$DUMP_FILE" "$SOURCE_DB"
pg_restore --list "$DUMP_FILE" | grep -v -E '(EXTENSION - |COMMENT - EXTENSION )ulid( |$)' >"$DUMP_FILE.list"
pg_restore --no-owner --no-acl --exit-on-error --use-list="$DUMP_FILE.list" --dbname="$TARGET_DB" "$DUMP_FILE"
