# Recipe: copy a database that uses ulid to another server (or database) with pg_dump, so that any
# failure stops the restore instead of scrolling by. SOURCE_DB and TARGET_DB are connection strings
# or database names; TARGET_DB is empty, on a server with the ulid files installed.
# 1. The version first: the dump says CREATE EXTENSION IF NOT EXISTS ulid without a version, so the
#    target would get its server's default version, or keep an older one already there, and the
#    objects of a newer release (uuid foreign keys to ulid keys, uuid_ulid_ops indexes) would fail.
#    Give the target the source's version: this fails, saying so, where its server lacks it.
set -eu
version="$(psql -X -At -d "$SOURCE_DB" -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")"
psql -X -q -v ON_ERROR_STOP=1 -v version="$version" -d "$TARGET_DB" <<'SQL'
CREATE EXTENSION IF NOT EXISTS ulid VERSION :'version';
ALTER EXTENSION ulid UPDATE TO :'version';
SQL
# 2. The restore, in one transaction that stops at the first error (for a plain-text dump:
#    psql -v ON_ERROR_STOP=1 --single-transaction -f app.sql).
pg_dump -Fc -d "$SOURCE_DB" -f app.dump
pg_restore --exit-on-error --single-transaction -d "$TARGET_DB" app.dump
