-- Recipe: retention. Detach the months that ended before the last 3 whole months without blocking
-- queries on events (CONCURRENTLY: run from psql, outside a transaction block and a function; not
-- allowed while events has a DEFAULT partition), then drop them.
SELECT format('ALTER TABLE %s DETACH PARTITION %s CONCURRENTLY', i.inhparent::regclass, c.oid::regclass),
       format('DROP TABLE %s', c.oid::regclass)
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'events'::regclass
  AND substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([0-9A-Z]{26})''\)')::ulid
      <= ulid_min((date_trunc('month', now() AT TIME ZONE 'UTC') - interval '3 months') AT TIME ZONE 'UTC')
ORDER BY 1
\gexec
