-- Public ids: ulid_encrypt(id, key) and ulid_decrypt(public_id, key), AES (FIPS-197) of the 16
-- bytes as one block. FIPS-197's own example vectors (Appendix C.1, AES-128, and C.3, AES-256:
-- plaintext 00112233445566778899aabbccddeeff), written here as literals, come out of both.
SELECT ulid_encrypt('00112233-4455-6677-8899-aabbccddeeff'::uuid::ulid,
                    '\x000102030405060708090a0b0c0d0e0f')::uuid = '69c4e0d8-6a7b-0430-d8cd-b78070b4c55a' AS aes128,
       ulid_encrypt('00112233-4455-6677-8899-aabbccddeeff'::uuid::ulid,
                    '\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f')::uuid
           = '8ea2b7ca-5167-45bf-eafc-49904b496089' AS aes256;
SELECT ulid_decrypt('69c4e0d8-6a7b-0430-d8cd-b78070b4c55a'::uuid::ulid, '\x000102030405060708090a0b0c0d0e0f')::uuid,
       ulid_decrypt('8ea2b7ca-5167-45bf-eafc-49904b496089'::uuid::ulid,
                    '\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f')::uuid;
-- The output is a ulid: 26 characters, as any id's text.
SELECT ulid_encrypt('01ARZ3NDEKTSV4RRFFQ69G5FAV', '\x000102030405060708090a0b0c0d0e0f');
-- The round trip, for 2,000 ids and as many keys of both lengths (made from md5, so the same every
-- run): every id comes back, no public id equals its id, and no two public ids collide.
WITH c AS (
    SELECT gen_random_ulid() AS id,
           decode(md5(i::text) || CASE WHEN i % 2 = 0 THEN md5('k' || i) ELSE '' END, 'hex') AS k
    FROM generate_series(1, 2000) i
)
SELECT count(*) AS cases,
       count(*) FILTER (WHERE ulid_decrypt(ulid_encrypt(id, k), k) = id) AS round_trips,
       count(*) FILTER (WHERE ulid_encrypt(id, k) = id) AS unchanged,
       count(DISTINCT ulid_encrypt(id, k)) AS distinct_public_ids,
       count(DISTINCT length(k)) AS key_lengths
FROM c;
-- One key for many ids: the neighbours of gen_ulid() (one apart within a millisecond) are not
-- neighbours outside, and the order is not kept.
WITH ids AS (SELECT i, gen_ulid() AS id FROM generate_series(1, 1000) i),
     pub AS (SELECT i, ulid_encrypt(id, '\x00112233445566778899aabbccddeeff') AS p FROM ids)
SELECT count(*) FILTER (WHERE a.p < b.p) BETWEEN 400 AND 600 AS order_not_kept,
       count(*) FILTER (WHERE substr(a.p::text, 1, 10) = substr(b.p::text, 1, 10)) < 10 AS time_prefix_not_shared
FROM pub a JOIN pub b ON b.i = a.i + 1;
-- A wrong key gives another id, never an error.
SELECT ulid_decrypt(ulid_encrypt('01ARZ3NDEKTSV4RRFFQ69G5FAV', '\x000102030405060708090a0b0c0d0e0f'),
                    '\x000102030405060708090a0b0c0d0e0e') <> '01ARZ3NDEKTSV4RRFFQ69G5FAV' AS wrong_key_other_id;
-- A uuid column of ULIDs goes through the casts: the names are not overloaded on uuid.
SELECT to_regprocedure('ulid_encrypt(uuid, bytea)') IS NULL AS no_uuid_overload,
       to_regprocedure('ulid_decrypt(uuid, bytea)') IS NULL AS no_uuid_overload_decrypt;
-- NULL in, NULL out (STRICT).
SELECT ulid_encrypt(NULL, '\x000102030405060708090a0b0c0d0e0f') IS NULL AS null_id,
       ulid_encrypt('01ARZ3NDEKTSV4RRFFQ69G5FAV', NULL) IS NULL AS null_key,
       ulid_decrypt(NULL, NULL) IS NULL AS null_both;
-- Keys of any other length: 22023 naming the length.
SELECT n, regress.error_of(format($$SELECT ulid_encrypt('01ARZ3NDEKTSV4RRFFQ69G5FAV', %L::bytea)$$,
                                  '\x' || repeat('ab', n)))
FROM unnest(ARRAY[0, 1, 15, 17, 24, 31, 33, 64]) n;
SELECT regress.error_of($$SELECT ulid_decrypt('01ARZ3NDEKTSV4RRFFQ69G5FAV', '\x0102')$$);
-- The key-argument forms are IMMUTABLE, STRICT and PARALLEL SAFE (computed once for constant
-- arguments, so ulid_decrypt($1, $2) is one index probe; an expression index over them would store
-- its key in the index definition, which every role can read); the server-key forms are STABLE,
-- and EXECUTE on them is not PUBLIC's.
SELECT p.oid::regprocedure, p.provolatile, p.proisstrict, p.proparallel,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_execute
FROM pg_proc p
WHERE p.proname IN ('ulid_encrypt', 'ulid_decrypt') AND p.pronamespace = 'public'::regnamespace
ORDER BY p.proname, p.pronargs;
-- Without a key the server-key forms refuse with 55000: where ulid is not preloaded (this test's
-- server, as scripts/test runs it) and where no ulid.public_id_key is set; t/170_public_ids.pl
-- runs them on a server that preloads ulid and holds a key.
SELECT left(regress.error_of($$SELECT ulid_encrypt('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid)$$), 7) AS encrypt,
       left(regress.error_of($$SELECT ulid_decrypt('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid)$$), 7) AS decrypt;
