-- Item 5: primary-key inserts. bench.pk_prepare(variant) creates pk_t with the variant's key
-- column; bench.pk_insert(item, variant, round, total, batch) inserts TOTAL rows in batches of
-- BATCH (one INSERT ... SELECT and one COMMIT per batch, like a client loading in batches) and
-- records: the time of every batch, the total, the time of the last 10 % of the batches, the
-- backend's on-CPU and CPU-wait time, the WAL written (pg_current_wal_lsn() difference over the
-- load), the index and table sizes and pgstatindex()'s leaf density and fragmentation.
-- Autovacuum is off on the table; scripts/bench runs CHECKPOINT before each load and the server
-- has max_wal_size large enough that no checkpoint falls inside a load (WAL = the records
-- themselves, not full-page images after a checkpoint).
CREATE TABLE IF NOT EXISTS bench.pk_variants (
    variant text PRIMARY KEY,
    ord     int NOT NULL,
    coldef  text NOT NULL,   -- the key column of pk_t
    setup   text             -- run before CREATE TABLE (e.g. the sequence)
);
INSERT INTO bench.pk_variants VALUES
    ('gen_ulid',        1, 'id ulid PRIMARY KEY DEFAULT gen_ulid()', NULL),
    ('gen_random_uuid', 2, 'id uuid PRIMARY KEY DEFAULT gen_random_uuid()', NULL),
    -- strictly increasing 16-byte key: a sequence number as the big-endian low 8 bytes of a uuid
    -- (through bytea and the binary-coercible ulid cast: about half the cost of a text round trip)
    ('seq_uuid',        3, 'id uuid PRIMARY KEY DEFAULT (''\x0000000000000000''::bytea || int8send(nextval(''pk_seq'')))::ulid::uuid',
                           'DROP SEQUENCE IF EXISTS pk_seq; CREATE SEQUENCE pk_seq CACHE %s'),
    -- within-millisecond-random key (what UUIDv7 and other ULID generators do)
    ('gen_random_ulid', 4, 'id ulid PRIMARY KEY DEFAULT gen_random_ulid()', NULL)
ON CONFLICT (variant) DO UPDATE SET ord = excluded.ord, coldef = excluded.coldef, setup = excluded.setup;

-- p_seq_cache: the sequence's CACHE. 100 for the single-session load (cheaper nextval, still strictly
-- increasing in the one session); 1 for the concurrent clients, so the key stays strictly increasing
-- across sessions (with a cache every client would append to a block of its own).
CREATE OR REPLACE PROCEDURE bench.pk_prepare(p_variant text, p_table text DEFAULT 'pk_t', p_seq_cache int DEFAULT 100)
LANGUAGE plpgsql AS $$
DECLARE
    v bench.pk_variants;
BEGIN
    SELECT * INTO STRICT v FROM bench.pk_variants WHERE variant = p_variant;
    EXECUTE format('DROP TABLE IF EXISTS %I', p_table);
    IF v.setup IS NOT NULL THEN EXECUTE format(v.setup, p_seq_cache); END IF;
    EXECUTE format('CREATE TABLE %I (%s, v int NOT NULL) WITH (autovacuum_enabled = off)', p_table, v.coldef);
END
$$;

CREATE OR REPLACE PROCEDURE bench.pk_insert(p_item text, p_variant text, p_round int, p_total int, p_batch int)
LANGUAGE plpgsql AS $$
DECLARE
    nb int := p_total / p_batch;
    times float8[] := '{}';
    lsn0 pg_lsn;
    t0 timestamptz;
    t1 timestamptz;
    b int;
    s record;
    w0 float8;
    w1 float8;
BEGIN
    SELECT wait_ns INTO w0 FROM bench.sched();
    lsn0 := pg_current_wal_lsn();
    FOR b IN 1 .. nb LOOP
        t0 := clock_timestamp();
        INSERT INTO pk_t (v) SELECT g FROM generate_series(1, p_batch) g;
        COMMIT;
        t1 := clock_timestamp();
        times := times || 1000 * extract(epoch FROM t1 - t0)::float8;
    END LOOP;
    SELECT wait_ns INTO w1 FROM bench.sched();
    INSERT INTO bench.results (item, variant, round, metric, seq, value)
    SELECT p_item, p_variant, p_round, 'batch_ms', i, times[i] FROM generate_subscripts(times, 1) i;
    SELECT * INTO s FROM pgstatindex('pk_t_pkey');
    INSERT INTO bench.results (item, variant, round, metric, value) VALUES
        (p_item, p_variant, p_round, 'ms', (SELECT sum(x) FROM unnest(times) x)),
        (p_item, p_variant, p_round, 'wait_ms', (w1 - w0) / 1e6),
        (p_item, p_variant, p_round, 'last10_ms',
            (SELECT sum(times[i]) FROM generate_series(nb - greatest(nb / 10, 1) + 1, nb) i)),
        (p_item, p_variant, p_round, 'wal_bytes', pg_wal_lsn_diff(pg_current_wal_lsn(), lsn0)),
        (p_item, p_variant, p_round, 'index_bytes', pg_relation_size('pk_t_pkey')),
        (p_item, p_variant, p_round, 'table_bytes', pg_relation_size('pk_t')),
        (p_item, p_variant, p_round, 'leaf_density', s.avg_leaf_density),
        (p_item, p_variant, p_round, 'leaf_fragmentation', s.leaf_fragmentation),
        (p_item, p_variant, p_round, 'rows', (SELECT count(*) FROM pk_t));
    COMMIT;
END
$$;
