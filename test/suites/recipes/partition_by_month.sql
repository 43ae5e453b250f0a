-- Recipe: a table partitioned by month on its ulid key, and a procedure that creates the months
-- ahead. A ulid's first 48 bits are its time, so ulid_min(<first instant of a month>) is where the
-- month starts: every key of the month, and no other, lies between two such bounds. Months are
-- taken in UTC, the time a ulid carries.
CREATE TABLE events (
    id      ulid NOT NULL DEFAULT gen_ulid(),
    kind    text NOT NULL,
    payload jsonb,
    PRIMARY KEY (id)
) PARTITION BY RANGE (id);
-- An index made on the parent is made on every partition, the existing ones and those to come.
CREATE INDEX events_id_brin ON events USING brin (id);

-- CALL create_month_partitions('events', 3) makes events_YYYYMM for this month and the 3 after it,
-- keeping those that exist; since => now() - interval '1 year' starts a year back (for a backfill).
CREATE PROCEDURE create_month_partitions(parent regclass, months_ahead int,
                                         since timestamptz DEFAULT now())
LANGUAGE plpgsql AS $$
DECLARE
    nsp   name;
    rel   name;
    month timestamp := date_trunc('month', since AT TIME ZONE 'UTC');
    last  timestamp := date_trunc('month', now() AT TIME ZONE 'UTC')
                       + make_interval(months => months_ahead);
BEGIN
    SELECT n.nspname, c.relname INTO nsp, rel
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = parent;
    WHILE month <= last LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS %I.%I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)',
                       nsp, rel || '_' || to_char(month, 'YYYYMM'), parent,
                       ulid_min(month AT TIME ZONE 'UTC'),
                       ulid_min((month + interval '1 month') AT TIME ZONE 'UTC'));
        month := month + interval '1 month';
    END LOOP;
END
$$;

CALL create_month_partitions('events', 3);
