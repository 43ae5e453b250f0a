# Recipe: register the portable edition with pg_tle and create it, as a role in pgtle_admin with
# CREATE on the database (no superuser). CASCADE creates pgcrypto, which the extension requires,
# where it is missing. APP_DB is the database as a libpq connection string.
psql -v ON_ERROR_STOP=1 -f portable/ulid_portable_tle.sql "$APP_DB"
psql -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS ulid_portable CASCADE" "$APP_DB"
