-- Text input and output: canonical form, case, Crockford aliases, boundaries and every error.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
SELECT '01arz3ndektsv4rrffq69g5fav'::ulid;
SELECT '01ArZ3nDeKtSv4RrFfQ69g5FaV'::ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid AS mixed_case_equal;
-- Smallest and largest values.
SELECT '00000000000000000000000000'::ulid AS smallest, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid AS largest;
SELECT '7zzzzzzzzzzzzzzzzzzzzzzzzz'::ulid;
-- I, i, L, l read as 1 and O, o as 0.
SELECT 'OILoil00000000000000000000'::ulid AS aliases, '01101100000000000000000000'::ulid AS same;
SELECT 'OILoil00000000000000000000'::ulid = '01101100000000000000000000'::ulid AS aliases_equal;
-- Output is always the canonical uppercase form.
SELECT '7abcdefghjkmnpqrstvwxyz000'::ulid::text;
-- Every character of the alphabet in every position round-trips.
SELECT count(*) AS round_trips
FROM (SELECT substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (i % 32) + 1, 1) AS c, pos
      FROM generate_series(0, 31) i, generate_series(2, 26) pos) x
WHERE overlay('00000000000000000000000000' PLACING c FROM pos)::ulid::text
      = overlay('00000000000000000000000000' PLACING c FROM pos);
SELECT count(*) AS first_char_round_trips
FROM generate_series(0, 7) d
WHERE (d || '0000000000000000000000000')::ulid::text = d || '0000000000000000000000000';
-- NULL in, NULL out.
SELECT NULL::ulid IS NULL AS null_stays_null;

-- Errors: SQLSTATE 22P02 with a DETAIL saying why.
SELECT 'U1ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
SELECT '81ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
SELECT ''::ulid;
SELECT regress.error_of(format('SELECT %L::ulid', q)) AS result, q AS input
FROM (VALUES
    (''),
    ('0'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FA'),       -- 25 characters
    ('01ARZ3NDEKTSV4RRFFQ69G5FAVX'),     -- 27 characters
    ('01ARZ3NDEKTSV4RRFFQ69G5FAV0000000000000'),
    (' 01ARZ3NDEKTSV4RRFFQ69G5FAV'),     -- leading space
    ('01ARZ3NDEKTSV4RRFFQ69G5FAV '),     -- trailing space
    ('01ARZ3NDEKTSV4RRFFQ69G5FA '),      -- space inside the 26
    ('01ARZ3NDEKTSV4RRFFQ69G5FAU'),      -- U is not Crockford
    ('01ARZ3NDEKTSV4RRFFQ69G5FAu'),
    ('01ARZ3NDEK-SV4RRFFQ69G5FAV'),      -- punctuation
    ('01ARZ3NDEKTSV4RRFFQ69G5F{}'),
    ('{1ARZ3NDEKTSV4RRFFQ69G5FAV'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FA' || chr(233)),  -- non-ASCII: length counts bytes
    ('01ARZ3NDEKTSV4RRFFQ69G5F' || chr(233)),   -- 26 bytes, two of them non-ASCII
    (E'01ARZ3NDEKTSV4RRFFQ69G5FA\t'),     -- control character
    ('81ARZ3NDEKTSV4RRFFQ69G5FAV'),      -- overflow: first character above 7
    ('ZZZZZZZZZZZZZZZZZZZZZZZZZZ'),
    ('8UUUUUUUUUUUUUUUUUUUUUUUUU'),      -- the first problem by position is reported
    ('0U00000000000000000000000Z'),
    ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')       -- the largest value is fine
) v(q);
-- Errors carry SQLSTATE 22P02.
\set VERBOSITY sqlstate
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
SELECT '81ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
SELECT 'short'::ulid;
\set VERBOSITY default
-- A bad value in a table load is rejected, and nothing partial is kept.
CREATE TABLE io_load (id ulid);
INSERT INTO io_load VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01ARZ3NDEKTSV4RRFFQ69G5FAU');
SELECT count(*) AS rows_kept FROM io_load;
DROP TABLE io_load;
