-- Recipe: from the native type to the portable edition, e.g. before moving to a managed service
-- that has no ulid extension. Run it on the database you leave (or on a copy of it, CREATE DATABASE
-- copy TEMPLATE app), after installing portable/ulid_portable.sql there next to the extension. The
-- ulid -> uuid cast is binary-coercible: the 16 bytes stay, the tables are not rewritten (only
-- their indexes are rebuilt); the keys keep a time-ordered default, ulid_portable.gen_ulid().
-- Then dump and restore with portable_dump_restore.sh below.
BEGIN;
ALTER TABLE orders DROP CONSTRAINT orders_customer_id_fkey;
ALTER TABLE customers
    ALTER COLUMN id TYPE uuid USING id::uuid,
    ALTER COLUMN id SET DEFAULT ulid_portable.gen_ulid();
ALTER TABLE orders
    ALTER COLUMN id TYPE uuid USING id::uuid,
    ALTER COLUMN id SET DEFAULT ulid_portable.gen_ulid(),
    ALTER COLUMN customer_id TYPE uuid USING customer_id::uuid;
ALTER TABLE orders ADD CONSTRAINT orders_customer_id_fkey
    FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE;
COMMIT;
