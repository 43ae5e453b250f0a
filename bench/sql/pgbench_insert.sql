-- pgbench script of item 5 (8 clients): one single-row insert per transaction.
INSERT INTO pgb_t (v) VALUES (1);
