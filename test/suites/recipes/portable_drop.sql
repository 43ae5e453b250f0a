-- Recipe: drop the portable edition once every table uses the native type (the uuid -> ulid
-- recipe above converts tables keyed by ulid_portable.gen_ulid() as they are: their uuids are
-- ULIDs already, and it sets DEFAULT gen_ulid()). RESTRICT, not CASCADE: this fails, naming the
-- object, while a default, view, index or constraint outside the schema still uses a function;
-- functions of your own that call ulid_portable.* in their body are not tracked, look for them.
BEGIN;
DROP FUNCTION ulid_portable.gen_ulid(), ulid_portable.gen_ulid(timestamptz), ulid_portable.gen_random_ulid(),
    ulid_portable.gen_ulid_start(bigint), ulid_portable.random_at(bigint),
    ulid_portable.ulid_encode(uuid), ulid_portable.ulid_decode(text), ulid_portable.decode_error(text),
    ulid_portable.ulid_to_timestamp(uuid), ulid_portable.ulid_ms(uuid), ulid_portable.ms_to_timestamp(bigint),
    ulid_portable.ulid_min(timestamptz), ulid_portable.ulid_max(timestamptz), ulid_portable.unix_ms(timestamptz),
    ulid_portable.ulid_encrypt(uuid, bytea), ulid_portable.ulid_decrypt(uuid, bytea),
    ulid_portable.aes_block(bytea, bytea, boolean)
    RESTRICT;
DROP SCHEMA ulid_portable RESTRICT;
COMMIT;
