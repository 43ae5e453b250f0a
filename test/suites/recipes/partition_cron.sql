-- Recipe: pg_cron keeps three months ahead, every day at 03:00 (pg_cron needs
-- shared_preload_libraries = 'pg_cron' and cron.database_name = the database of the table).
CREATE EXTENSION IF NOT EXISTS pg_cron;
SELECT cron.schedule('events-partitions', '0 3 * * *',
                     $$CALL create_month_partitions('events', 3)$$);
