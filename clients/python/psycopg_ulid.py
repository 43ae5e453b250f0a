"""psycopg 3: ulid values as 26-character strings, also from binary cursors and binary COPY."""
import psycopg
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

import ulid_codec


class UlidBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return ulid_codec.to_str(bytes(data))


class UlidBinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return ulid_codec.to_bytes(obj)


def register_ulid(conn):
    """Once per connection: ulid[] as lists, binary ulid as str, binary COPY of ulid columns."""
    info = TypeInfo.fetch(conn, "ulid")
    info.register(conn)  # the array type: ulid[] -> list of str
    conn.adapters.register_loader(info.oid, UlidBinaryLoader)
    UlidBinaryDumper.oid = info.oid
    conn.adapters.register_dumper(None, UlidBinaryDumper)  # used by COPY ... set_types(["ulid"])


if __name__ == "__main__":
    with psycopg.connect() as conn:  # PG* environment variables
        register_ulid(conn)
        conn.execute("CREATE TEMP TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), what text)")
        new_id = conn.execute("INSERT INTO events (what) VALUES (%s) RETURNING id", ["signup"]).fetchone()[0]
        with conn.cursor(binary=True) as cur:
            cur.execute("SELECT id, what FROM events WHERE id = %s::ulid", [new_id])
            print(cur.fetchone())  # (a 26-character str, "signup"), in binary mode too
