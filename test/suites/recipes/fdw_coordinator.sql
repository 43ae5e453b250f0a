CREATE EXTENSION ulid SCHEMA public;
CREATE EXTENSION postgres_fdw;
CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host 'shard1.example', port '5432', dbname 'postgres',
             extensions 'ulid', batch_size '1000', async_capable 'true');
CREATE SERVER shard2 FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host 'shard2.example', port '5432', dbname 'postgres',
             extensions 'ulid', batch_size '1000', async_capable 'true');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1 OPTIONS (user 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard2 OPTIONS (user 'postgres');

CREATE TABLE events (
    id      ulid NOT NULL DEFAULT gen_ulid(),
    n       int  NOT NULL,
    payload text NOT NULL
) PARTITION BY HASH (id);
CREATE FOREIGN TABLE events_p0 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 0) SERVER shard1;
CREATE FOREIGN TABLE events_p1 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 1) SERVER shard2;
CREATE FOREIGN TABLE events_p2 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 2) SERVER shard1;
CREATE FOREIGN TABLE events_p3 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 3) SERVER shard2;
