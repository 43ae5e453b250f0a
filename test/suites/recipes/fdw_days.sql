SELECT day, sum(n)::bigint AS n FROM (
    SELECT date_bin('1 day', ulid_to_timestamp(id), timestamptz '2000-01-01 00:00:00+00') AS day, count(*) AS n FROM events_p0 GROUP BY 1
    UNION ALL SELECT date_bin('1 day', ulid_to_timestamp(id), timestamptz '2000-01-01 00:00:00+00'), count(*) FROM events_p1 GROUP BY 1
    UNION ALL SELECT date_bin('1 day', ulid_to_timestamp(id), timestamptz '2000-01-01 00:00:00+00'), count(*) FROM events_p2 GROUP BY 1
    UNION ALL SELECT date_bin('1 day', ulid_to_timestamp(id), timestamptz '2000-01-01 00:00:00+00'), count(*) FROM events_p3 GROUP BY 1
) per_partition GROUP BY day ORDER BY day;
