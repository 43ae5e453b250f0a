-- Recipe: convert text and char(26) columns holding ULID strings to ulid without losing a row.
-- Example table: legacy_events (id bigint PRIMARY KEY, ext_id text, ref char(26), ...).
-- Lowercase and Crockford's aliases (I, L -> 1; O -> 0) are accepted and come out uppercase;
-- anything else that is not a ULID becomes NULL, and its row, column, value and the reason are kept
-- in ulid_rejects first.

-- The reason a string is not a ULID, NULL when it is one.
-- (On PostgreSQL 16+, pg_input_error_info(value, 'ulid') gives the same without PL/pgSQL.)
CREATE FUNCTION ulid_parse_error(value text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
    msg    text;
    detail text;
BEGIN
    PERFORM value::ulid;
    RETURN NULL;
EXCEPTION WHEN invalid_text_representation THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
    RETURN msg || ' ' || detail;
END $$;

-- A cast that gives NULL instead of an error (22P02).
CREATE FUNCTION ulid_or_null(value text) RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
    RETURN value::ulid;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN NULL;
END $$;

CREATE TABLE ulid_rejects (
    table_name  regclass NOT NULL,
    column_name name     NOT NULL,
    row_id      bigint   NOT NULL,
    bad_value   text     NOT NULL,
    reason      text     NOT NULL,
    PRIMARY KEY (table_name, column_name, row_id)
);

BEGIN;
-- nothing may change between the report and the conversion
LOCK TABLE legacy_events IN ACCESS EXCLUSIVE MODE;
INSERT INTO ulid_rejects (table_name, column_name, row_id, bad_value, reason)
SELECT 'legacy_events', v.column_name, t.id, v.value, e.reason
FROM legacy_events t
CROSS JOIN LATERAL (VALUES ('ext_id', t.ext_id), ('ref', t.ref::text)) AS v (column_name, value)
CROSS JOIN LATERAL (SELECT ulid_parse_error(v.value) AS reason) AS e
WHERE e.reason IS NOT NULL;
ALTER TABLE legacy_events
    ALTER COLUMN ext_id TYPE ulid USING ulid_or_null(ext_id),
    ALTER COLUMN ref    TYPE ulid USING ulid_or_null(ref);
COMMIT;

-- the report
SELECT column_name, count(*) AS rejected FROM ulid_rejects GROUP BY 1 ORDER BY 1;
