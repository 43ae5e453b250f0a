-- Recipe: convert a uuid primary key, and the foreign key that references it, to ulid in place.
-- Example schema: customers (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), ...) and
-- orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), customer_id uuid REFERENCES customers ...).
-- The uuid -> ulid cast is binary-coercible: the 16 bytes stay as they are and the tables are not
-- rewritten (only their indexes are rebuilt). The foreign key is dropped and added again inside
-- the same transaction, so that both of its columns change type together.
BEGIN;
ALTER TABLE orders DROP CONSTRAINT orders_customer_id_fkey;
ALTER TABLE customers
    ALTER COLUMN id TYPE ulid USING id::ulid,
    ALTER COLUMN id SET DEFAULT gen_ulid();
ALTER TABLE orders
    ALTER COLUMN id TYPE ulid USING id::ulid,
    ALTER COLUMN id SET DEFAULT gen_ulid(),
    ALTER COLUMN customer_id TYPE ulid USING customer_id::ulid;
ALTER TABLE orders ADD CONSTRAINT orders_customer_id_fkey
    FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE;
COMMIT;
