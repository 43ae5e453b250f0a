# Recipe: copy a database that uses the pg_tle form to another server with pg_dump. On the target,
# a superuser has run pg_tle_enable.sql and TARGET_DB's owner is the restoring role, in
# pgtle_admin. The dump carries pg_tle's copies of the registered scripts, so nothing needs
# registering first; the restore reports two errors about pg_tle's own schema and comment
# (they exist already, and belong to the superuser), which are expected, so it is not run with
# ON_ERROR_STOP. SOURCE_DB and TARGET_DB are libpq connection strings.
pg_dump -f ulid_app.sql "$SOURCE_DB"
psql -f ulid_app.sql "$TARGET_DB"
