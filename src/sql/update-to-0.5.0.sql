-- Every update into 0.5.0 (and its install script), after the bodies before it: public ids.
-- ulid_encrypt(id, key) and ulid_decrypt(public_id, key) are AES (FIPS-197) of the 16 bytes as
-- one block with a 16- or 32-byte key: a keyed permutation of all 2^128 values, so a public id
-- shows neither the time nor the neighbours of the id it stands for, and ulid_decrypt turns it
-- back. ulid_encrypt(id) and ulid_decrypt(public_id) use the key the server holds in
-- ulid.public_id_key instead (STABLE: the key can change at a restart); EXECUTE on them is revoked
-- from PUBLIC, so only roles granted it use the key, and none of them can read it.
-- Made together, once: skipped where the extension already has ulid_encrypt(ulid, bytea) with that
-- exact signature in its schema. What was skipped or made is checked at the end of this body (each
-- function a member with its exact signature), and every script from 0.5.0 on then ends with the
-- check of 0.3.1 once more (src/sql/assemble.sh). Same rules as every script: built-ins
-- pg_catalog-qualified, operators included; nothing substituted into this text; guards fail closed.

DO $ulid_public_id$
DECLARE
    ext pg_catalog.oid;
    nsp pg_catalog.oid;
    ulid_type pg_catalog.oid;
    missing pg_catalog.text;
BEGIN
    SELECT e.oid, e.extnamespace INTO ext, nsp
    FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'ulid';
    SELECT t.oid INTO ulid_type FROM pg_catalog.pg_type t
    WHERE t.typname OPERATOR(pg_catalog.=) 'ulid' AND t.typnamespace OPERATOR(pg_catalog.=) nsp;

    IF NOT EXISTS (SELECT FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
                   WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                     AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                     AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e'
                     AND p.proname OPERATOR(pg_catalog.=) 'ulid_encrypt'
                     AND p.pronamespace OPERATOR(pg_catalog.=) nsp
                     AND p.proargtypes OPERATOR(pg_catalog.=) pg_catalog.format('%s 17', ulid_type)::pg_catalog.oidvector) THEN
        CREATE FUNCTION ulid_encrypt(id ulid, key pg_catalog.bytea) RETURNS ulid
            AS 'MODULE_PATHNAME', 'ulid_encrypt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION ulid_encrypt(ulid, pg_catalog.bytea) IS
            'public id of an id: AES of its 16 bytes with a 16- or 32-byte key';
        CREATE FUNCTION ulid_decrypt(public_id ulid, key pg_catalog.bytea) RETURNS ulid
            AS 'MODULE_PATHNAME', 'ulid_decrypt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION ulid_decrypt(ulid, pg_catalog.bytea) IS
            'id of a public id: the inverse of ulid_encrypt with the same key';
        CREATE FUNCTION ulid_encrypt(id ulid) RETURNS ulid
            AS 'MODULE_PATHNAME', 'ulid_encrypt_server_key' LANGUAGE C STABLE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION ulid_encrypt(ulid) IS
            'public id of an id with the server-held key ulid.public_id_key (EXECUTE granted by role)';
        CREATE FUNCTION ulid_decrypt(public_id ulid) RETURNS ulid
            AS 'MODULE_PATHNAME', 'ulid_decrypt_server_key' LANGUAGE C STABLE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION ulid_decrypt(ulid) IS
            'id of a public id with the server-held key ulid.public_id_key (EXECUTE granted by role)';
        REVOKE EXECUTE ON FUNCTION ulid_encrypt(ulid), ulid_decrypt(ulid) FROM PUBLIC;
    END IF;

    -- every function of 0.5.0: a member of the extension, in its schema, with exactly its signature
    SELECT pg_catalog.string_agg(pg_catalog.format('function %s(%s)', f.name, f.args), ', ' ORDER BY f.name, f.args)
    INTO missing
    FROM (SELECT n AS name, 'ulid,bytea' AS args, pg_catalog.format('%s 17', ulid_type)::pg_catalog.oidvector AS types
          FROM pg_catalog.unnest(ARRAY['ulid_encrypt', 'ulid_decrypt']) n
          UNION ALL
          SELECT n, 'ulid', pg_catalog.format('%s', ulid_type)::pg_catalog.oidvector
          FROM pg_catalog.unnest(ARRAY['ulid_encrypt', 'ulid_decrypt']) n) f
    WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_depend d ON d.objid OPERATOR(pg_catalog.=) p.oid
                      WHERE p.proname OPERATOR(pg_catalog.=) f.name AND p.pronamespace OPERATOR(pg_catalog.=) nsp
                        AND p.proargtypes OPERATOR(pg_catalog.=) f.types
                        AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                        AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                        AND d.refobjid OPERATOR(pg_catalog.=) ext AND d.deptype OPERATOR(pg_catalog.=) 'e');
    IF missing IS NOT NULL OR ext IS NULL OR ulid_type IS NULL THEN
        RAISE EXCEPTION 'extension ulid is not as its scripts made it: it lacks %', COALESCE(missing, 'itself')
            USING ERRCODE = 'duplicate_object',
                  HINT = 'Nothing was changed. docs/security.md (A refused update) shows how to find and remove objects that are not the extension''s own.';
    END IF;
END
$ulid_public_id$;
