# Recipe: step 2, the schema: dumped by the NEW major's pg_dump (it reads every older server) and
# restored into the new server's database (empty, with the ulid extension's files installed; the
# dump's CREATE EXTENSION ulid creates it there). Debian's packaged 15 stores a pg_attver option on
# every column, which pg_dump writes out and an upstream server refuses: those lines are left out.
pg_dump --schema-only --no-publications --no-subscriptions --file=schema.sql "$OLD_DB"
sed -i '/^ALTER TABLE ONLY .* ALTER COLUMN .* SET (pg_attver=[0-9]*);$/d' schema.sql
psql -X --quiet --set=ON_ERROR_STOP=1 --output=/dev/null --file=schema.sql "$NEW_DB"
