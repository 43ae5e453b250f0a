-- Recipe: fill a ulid column of existing rows of a distributed table. Citus refuses
-- UPDATE orders SET receipt = gen_ulid() (no VOLATILE function in an UPDATE of a distributed
-- table); a MATERIALIZED CTE computes the new values first (a distributed SELECT), and the UPDATE
-- joins the stored result.
WITH fresh AS MATERIALIZED (
    SELECT id, gen_ulid() AS receipt FROM orders WHERE receipt IS NULL
)
UPDATE orders o SET receipt = fresh.receipt
FROM fresh WHERE o.id = fresh.id;
