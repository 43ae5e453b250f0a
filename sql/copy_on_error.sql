-- COPY FROM with ON_ERROR (17: ignore; 19: set_null) meets ulid's soft input errors (16+): a row
-- whose ulid text is bad is skipped, or gets NULL, with a NOTICE naming the line, the column and
-- the value, instead of ending the COPY. Where the server lacks the option, the same COPY runs
-- without it and ends at the first bad row, keeping none (expected/copy_on_error_2.out: 13 to 16;
-- _1.out: 17 and 18, without set_null). The options come from a psql variable so that every
-- major reads the same rows: a COPY refused for its options would leave psql to read them as SQL.
CREATE TABLE copy_err (n int, id ulid);
SELECT CASE WHEN current_setting('server_version_num')::int >= 170000
            THEN 'ON_ERROR ignore, LOG_VERBOSITY verbose' ELSE 'FORMAT text' END AS opts_ignore,
       CASE WHEN current_setting('server_version_num')::int >= 190000
            THEN 'ON_ERROR set_null, LOG_VERBOSITY verbose' ELSE 'FORMAT text' END AS opts_set_null \gset
\echo COPY options: :opts_ignore
COPY copy_err FROM STDIN WITH (:opts_ignore);
1	01ARZ3NDEKTSV4RRFFQ69G5FAV
2	01ARZ3NDEKTSV4RRFFQ69G5FAU
3	81ARZ3NDEKTSV4RRFFQ69G5FAV
4	01ARZ3NDEKTSV4RRFFQ69G5FA
5	01arz3ndektsv4rrffq69g5faw
6	\N
\.
SELECT n, id FROM copy_err ORDER BY n;
TRUNCATE copy_err;
\echo COPY options: :opts_set_null
COPY copy_err FROM STDIN WITH (:opts_set_null);
1	01ARZ3NDEKTSV4RRFFQ69G5FAV
2	01ARZ3NDEKTSV4RRFFQ69G5FAU
3	81ARZ3NDEKTSV4RRFFQ69G5FAV
\.
SELECT n, id FROM copy_err ORDER BY n;
DROP TABLE copy_err;
