-- Recipe: step 5, on the new server, once it has confirmed that position and the rows are checked:
-- stop subscribing (this also drops the replication slot on the old server). Logical replication
-- carries no sequence: ulid keys need none; set any sequence the tables still use.
DROP SUBSCRIPTION upgrade;
