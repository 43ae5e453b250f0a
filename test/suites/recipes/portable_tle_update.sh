# Recipe: update the pg_tle form to the version of this checkout: register it (the file registers
# every version and the update to the current one, and leaves what is registered already alone),
# then update, as a role in pgtle_admin that owns the extension.
psql -v ON_ERROR_STOP=1 -f portable/ulid_portable_tle.sql "$APP_DB"
psql -v ON_ERROR_STOP=1 -c "ALTER EXTENSION ulid_portable UPDATE" "$APP_DB"
