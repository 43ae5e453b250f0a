-- Recipe: step 3, on the new server: subscribe, with psql -v old='host=… dbname=app user=…' (a
-- superuser or a role with REPLICATION on the old server) -v binary=true (or false). The initial
-- copy starts at once; the application goes on writing to the old server, and its writes follow.
CREATE SUBSCRIPTION upgrade CONNECTION :'old' PUBLICATION upgrade WITH (binary = :binary);
