EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events
WHERE id >= timestamptz '2025-03-03 00:00:00+00'::ulid AND id < timestamptz '2025-03-04 00:00:00+00'::ulid;
