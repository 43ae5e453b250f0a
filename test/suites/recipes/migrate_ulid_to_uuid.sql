-- Recipe: convert the ulid keys of migrate_uuid_to_ulid.sql back to uuid (same 16 bytes, no
-- rewrite of the tables). With DEFAULT gen_random_uuid() nothing in these tables depends on the
-- extension any more; keep DEFAULT gen_ulid()::uuid instead for time-ordered uuid keys.
BEGIN;
ALTER TABLE orders DROP CONSTRAINT orders_customer_id_fkey;
ALTER TABLE customers
    ALTER COLUMN id TYPE uuid USING id::uuid,
    ALTER COLUMN id SET DEFAULT gen_random_uuid();
ALTER TABLE orders
    ALTER COLUMN id TYPE uuid USING id::uuid,
    ALTER COLUMN id SET DEFAULT gen_random_uuid(),
    ALTER COLUMN customer_id TYPE uuid USING customer_id::uuid;
ALTER TABLE orders ADD CONSTRAINT orders_customer_id_fkey
    FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE;
COMMIT;
