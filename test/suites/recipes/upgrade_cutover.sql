-- Recipe: step 4, the cut-over, on the old server: from now on every session's next transaction is
-- read-only (a write fails with 25006; a session that asks for a read-write transaction still gets
-- one), and the WAL position the new server must confirm before the application moves.
ALTER SYSTEM SET default_transaction_read_only = on;
SELECT pg_reload_conf();
SELECT pg_current_wal_lsn();
