-- publisher (wal_level = logical)
CREATE PUBLICATION pub FOR TABLE docs, notes;
-- subscriber, text mode (the default)
CREATE SUBSCRIPTION sub_text CONNECTION 'host=publisher.example port=5432 dbname=postgres user=postgres' PUBLICATION pub;
-- or binary: ulid travels as its 16 bytes (ulid_send / ulid_recv)
CREATE SUBSCRIPTION sub_bin CONNECTION 'host=publisher.example port=5432 dbname=postgres user=postgres' PUBLICATION pub WITH (binary = true);
