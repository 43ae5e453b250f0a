-- Recipe: a major upgrade by logical replication, step 1, on the old server (with wal_level =
-- logical; setting it takes a restart): publish every table. A table needs a primary key (or a
-- REPLICA IDENTITY) for its updates and deletes to replicate.
CREATE PUBLICATION upgrade FOR ALL TABLES;
