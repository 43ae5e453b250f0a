-- Recipe: what a superuser (on Amazon RDS and Aurora: the rds_superuser master user) does once per
-- database, after pg_tle is in shared_preload_libraries: create pg_tle, and let the role that
-- registers extensions (here "admin", no superuser) do so.
CREATE EXTENSION IF NOT EXISTS pg_tle;
GRANT pgtle_admin TO admin;
