-- Recipe: pg_partman 5 keeps monthly partitions of a table whose ULID key is stored as uuid.
-- pg_partman 5 takes no ulid column, but it takes a uuid one with functions that map a time to a key
-- and back. A ULID's 16 bytes as a uuid hold the millisecond in their first 48 bits, as a UUIDv7's do,
-- so pg_partman's own uuid7_time_encoder and uuid7_time_decoder give the right bounds.
CREATE SCHEMA IF NOT EXISTS partman;
CREATE EXTENSION IF NOT EXISTS pg_partman SCHEMA partman;

CREATE TABLE events (
    id      uuid NOT NULL DEFAULT gen_ulid()::uuid,
    kind    text NOT NULL,
    payload jsonb,
    PRIMARY KEY (id)
) PARTITION BY RANGE (id);

-- this month, 3 before and 3 after it (p_premake), and a DEFAULT partition for rows outside them
SELECT partman.create_parent('public.events', 'id', '1 month',
                             p_time_encoder => 'partman.uuid7_time_encoder',
                             p_time_decoder => 'partman.uuid7_time_decoder',
                             p_premake => 3);

-- run_maintenance() (pg_partman's background worker, or pg_cron) makes the months ahead and drops
-- the months that ended more than 12 months ago
UPDATE partman.part_config SET retention = '12 months', retention_keep_table = false
WHERE parent_table = 'public.events';
