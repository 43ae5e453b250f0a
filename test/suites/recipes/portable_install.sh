# Recipe: install the portable edition, or update it (the file can be run again), as any role with
# CREATE on the database: no superuser needed. APP_DB is the database as a libpq connection
# string, e.g. APP_DB="host=db.example dbname=app user=app_owner".
psql -v ON_ERROR_STOP=1 -f portable/ulid_portable.sql "$APP_DB"
