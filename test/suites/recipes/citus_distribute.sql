-- Recipe: ulid keys in Citus, run on the coordinator once CREATE EXTENSION ulid has run there. The
-- extension's files must be installed on every node: CREATE EXTENSION on the coordinator creates
-- it on the workers already added, and citus_add_node creates it on a worker added later.
CREATE TABLE orders (
    id      ulid PRIMARY KEY DEFAULT gen_ulid(),
    shop_id ulid NOT NULL,
    total   numeric(12, 2) NOT NULL,
    receipt ulid
);
-- hash distribution on the key: new rows, all of the same moment, spread over every worker
SELECT create_distributed_table('orders', 'id');

-- an order's lines on the same shard as the order: joins on the key run on one worker
CREATE TABLE order_lines (
    order_id ulid NOT NULL,
    line     int NOT NULL,
    item     text NOT NULL,
    PRIMARY KEY (order_id, line)
);
SELECT create_distributed_table('order_lines', 'order_id', colocate_with => 'orders');

-- a small table that every node holds in full
CREATE TABLE shops (
    id   ulid PRIMARY KEY DEFAULT gen_ulid(),
    name text NOT NULL
);
SELECT create_reference_table('shops');
