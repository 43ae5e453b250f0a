-- Recipe (ulid 0.3.0+): move a uuid primary key to ulid and leave the tables that reference it as
-- they are. Example schema: customers (id uuid PRIMARY KEY, ...) and orders (..., customer_id uuid
-- REFERENCES customers ON DELETE CASCADE, with an index orders_customer_id on it).
-- uuid -> ulid is binary-coercible: no table is rewritten, and PostgreSQL re-creates the foreign
-- key itself on the cross-type operators (ulid = uuid). Applications may keep binding uuid values.
BEGIN;
ALTER TABLE customers
    ALTER COLUMN id TYPE ulid USING id::ulid,
    ALTER COLUMN id SET DEFAULT gen_ulid();
COMMIT;
-- Deleting a customer looks its orders up by a ulid value: give orders.customer_id an index in
-- ulid's family (it serves uuid = uuid lookups as well), then drop core's one.
CREATE INDEX CONCURRENTLY orders_customer_id_ulid ON orders (customer_id uuid_ulid_ops);
DROP INDEX CONCURRENTLY orders_customer_id;
