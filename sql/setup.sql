-- Helpers shared by the other regression files (pg_regress runs them in order in one database).
-- regress.error_of(query) runs a query and returns 'ok' or "SQLSTATE: message / detail".
CREATE SCHEMA regress;
CREATE FUNCTION regress.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
    detail text;
BEGIN
    EXECUTE query;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                            detail = PG_EXCEPTION_DETAIL;
    RETURN state || ': ' || message || coalesce(' / ' || nullif(detail, ''), '');
END
$$;
SELECT extname, extversion, extrelocatable FROM pg_extension WHERE extname = 'ulid';
