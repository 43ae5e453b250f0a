-- Recipe (ulid 0.3.0+): after migrate_parent_first.sql, move a child's uuid column to ulid too
-- (orders.customer_id here; one child table at a time, whenever it suits). The index that recipe
-- gave the column uses uuid_ulid_ops, an operator class of uuid: ALTER COLUMN ... TYPE re-creates
-- each index from its definition, operator class included, and ulid is not uuid (42804,
-- "operator class uuid_ulid_ops does not accept data type ulid"). So the index goes first and comes
-- back with ulid's default class, in the same transaction as the type change. The foreign key
-- stays (ulid = ulid now); no table is rewritten.
BEGIN;
DROP INDEX orders_customer_id_ulid;
ALTER TABLE orders ALTER COLUMN customer_id TYPE ulid USING customer_id::ulid;
CREATE INDEX orders_customer_id ON orders (customer_id);
COMMIT;
