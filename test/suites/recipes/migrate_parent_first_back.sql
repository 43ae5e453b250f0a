-- Recipe (ulid 0.3.0+): the way back from migrate_parent_first.sql, whether or not the children
-- followed (migrate_child_after_parent.sql): customers.id and orders.customer_id become uuid again
-- and nothing in the two tables depends on the extension. ALTER COLUMN ... TYPE re-creates each
-- index from its definition, which names its operator class when that is not the type's default:
-- an index on one of ulid's other classes (ulid_minmax_multi_ops, ulid_bloom_ops) would stop it
-- ("does not accept data type uuid"), and one on uuid_ulid_ops would keep depending on ulid. Every
-- such index of the two tables is written down, dropped, and made again after the type change with
-- uuid's class of the same kind (uuid_minmax_multi_ops, uuid_bloom_ops; uuid's default for
-- uuid_ulid_ops). The foreign key is dropped and added again so that both columns change together.
BEGIN;
CREATE TEMP TABLE moved_indexes ON COMMIT DROP AS
SELECT DISTINCT i.indexrelid::regclass AS index_name, pg_get_indexdef(i.indexrelid) AS definition
FROM pg_index i JOIN pg_opclass c ON c.oid = ANY (i.indclass::oid[])
WHERE i.indrelid IN ('customers'::regclass, 'orders'::regclass)
  AND c.opcname IN ('ulid_minmax_multi_ops', 'ulid_bloom_ops', 'uuid_ulid_ops');
SELECT format('DROP INDEX %s', index_name) FROM moved_indexes \gexec
ALTER TABLE orders DROP CONSTRAINT orders_customer_id_fkey;
ALTER TABLE customers
    ALTER COLUMN id TYPE uuid USING id::uuid,
    ALTER COLUMN id SET DEFAULT gen_random_uuid();
ALTER TABLE orders ALTER COLUMN customer_id TYPE uuid USING customer_id::uuid;
ALTER TABLE orders ADD CONSTRAINT orders_customer_id_fkey
    FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE;
SELECT regexp_replace(regexp_replace(definition,
           '(("[^"]+"|\w+)\.)?ulid_(minmax_multi|bloom)_ops', 'uuid_\3_ops', 'g'),
           ' (("[^"]+"|\w+)\.)?uuid_ulid_ops', '', 'g')
FROM moved_indexes \gexec
COMMIT;
