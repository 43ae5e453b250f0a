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
-- regress.plan(query) is EXPLAIN (COSTS OFF) of the query, with the only wording that differs
-- between the majors we test made neutral: an InitPlan's header ("InitPlan 1 (returns $0)" up to
-- 16, "InitPlan 1" from 17) and references to its result ("$0" up to 16, "(InitPlan 1).col1" from
-- 17) both print as on 17+, and so do 19's names for them ("InitPlan expr_1", "InitPlan minmax_1");
-- 18's "Disabled: true" under a node an enable_* setting turned off and 19's "Replaces:" line under
-- a Result that stands for a min()/max() are left out. Use it for plans with at most one InitPlan.
CREATE FUNCTION regress.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        CONTINUE WHEN line ~ '^ *(Disabled: true|Replaces: MinMaxAggregate)$';
        line := regexp_replace(line, 'InitPlan ([0-9]+) \(returns \$[0-9]+\)', 'InitPlan \1');
        line := regexp_replace(line, 'InitPlan (expr|minmax)_1\M', 'InitPlan 1', 'g');
        RETURN NEXT regexp_replace(line, '\$0\M', '(InitPlan 1).col1', 'g');
    END LOOP;
END
$$;
-- (Debian's package build runs these tests with the extension's files in extension_destdir, a
-- setting of Debian's servers that pg_available_extensions does not read: there, and only there,
-- the view has no row for ulid.)
SELECT e.extname,
       coalesce(e.extversion = a.default_version,
                pg_catalog.current_setting('extension_destdir', true) <> '') AS default_version,
       e.extrelocatable
FROM pg_extension e LEFT JOIN pg_available_extensions a ON a.name = e.extname WHERE e.extname = 'ulid';
