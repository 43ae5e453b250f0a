-- shard1
CREATE EXTENSION ulid SCHEMA public;
CREATE TABLE events_p0 (id ulid PRIMARY KEY, n int NOT NULL, payload text NOT NULL);
CREATE TABLE events_p2 (id ulid PRIMARY KEY, n int NOT NULL, payload text NOT NULL);
-- shard2: the same with events_p1 and events_p3
