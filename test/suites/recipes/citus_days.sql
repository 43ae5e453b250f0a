SELECT date_trunc('day', ulid_to_timestamp(id), 'UTC') AS day, count(*) FROM orders GROUP BY 1 ORDER BY 1;
SELECT date_bin('1 day', ulid_to_timestamp(id), '2000-01-01 00:00:00+00') AS day, count(*) FROM orders GROUP BY 1 ORDER BY 1;
