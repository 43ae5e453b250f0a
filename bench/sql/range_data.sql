-- Item 6 data: N rows inserted in time order, one every 100 ms from 2025-01-01 (5M rows span
-- ~5.8 days), each with fresh entropy (gen_ulid(ts)), and a payload column the queries must read
-- from the heap. Two copies: one with a b-tree, one with a BRIN (ulid_minmax_ops, 128 pages/range).
DROP TABLE IF EXISTS r_bt, r_brin;
CREATE TABLE r_bt (id ulid NOT NULL, v int NOT NULL);
INSERT INTO r_bt
SELECT gen_ulid(timestamptz '2025-01-01 00:00:00+00' + g * interval '100 ms'), g % 1000
FROM generate_series(1, :N) g;
CREATE TABLE r_brin AS SELECT * FROM r_bt;
CREATE INDEX r_bt_idx ON r_bt USING btree (id);
CREATE INDEX r_brin_idx ON r_brin USING brin (id);
VACUUM (FREEZE, ANALYZE) r_bt, r_brin;
-- Q windows of the given width at fixed, spread-out positions inside the loaded span; returns
-- the summed server-side execution time (EXPLAIN ANALYZE, TIMING OFF) of the Q queries.
CREATE OR REPLACE FUNCTION bench.range_ms(tab text, q int, width interval, n bigint) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    span interval := (n - 1) * interval '100 ms' - width;
    lo timestamptz;
    total float8 := 0;
    i int;
BEGIN
    FOR i IN 0 .. q - 1 LOOP
        lo := timestamptz '2025-01-01 00:00:00.1+00' + span * ((i * 0.618034) - floor(i * 0.618034));
        total := total + bench.explain_ms(format(
            'SELECT count(*), sum(v) FROM %I WHERE id >= %L::timestamptz::ulid AND id < %L::timestamptz::ulid',
            tab, lo, lo + width));
    END LOOP;
    RETURN total;
END
$$;
SELECT 'range: b-tree ' || pg_size_pretty(pg_relation_size('r_bt_idx')) || ', BRIN '
       || pg_size_pretty(pg_relation_size('r_brin_idx')) AS info;
