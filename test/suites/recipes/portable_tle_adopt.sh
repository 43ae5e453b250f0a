# Recipe: turn a loose installation (portable/ulid_portable.sql) into the pg_tle extension, as the
# role that owns it, in pgtle_admin: first bring the loose functions to this version (the loose
# file updates them in place), then register and create; CREATE EXTENSION takes the functions
# over, and no table is rewritten.
psql -v ON_ERROR_STOP=1 -f portable/ulid_portable.sql "$APP_DB"
psql -v ON_ERROR_STOP=1 -f portable/ulid_portable_tle.sql "$APP_DB"
psql -v ON_ERROR_STOP=1 -c "CREATE EXTENSION ulid_portable CASCADE" "$APP_DB"
