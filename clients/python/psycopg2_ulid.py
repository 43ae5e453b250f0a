"""psycopg2: ulid values are str already; one registration makes ulid[] a list of str."""
import psycopg2
import psycopg2.extensions


def register_ulid(conn):
    """Once per connection (or pass conn_or_curs=None for all): ulid[] -> list of str."""
    with conn.cursor() as cur:
        cur.execute("SELECT 'ulid[]'::regtype::oid")
        array_oid = cur.fetchone()[0]
    ulid_array = psycopg2.extensions.new_array_type((array_oid,), "ULID[]", psycopg2.STRING)
    psycopg2.extensions.register_type(ulid_array, conn)


if __name__ == "__main__":
    conn = psycopg2.connect("")  # PG* environment variables
    register_ulid(conn)
    with conn, conn.cursor() as cur:
        cur.execute("CREATE TEMP TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), tags ulid[])")
        cur.execute("INSERT INTO events (tags) VALUES (%s::ulid[]) RETURNING id, tags", [["01ARZ3NDEKTSV4RRFFQ69G5FAV"]])
        print(cur.fetchone())  # (a 26-character str, ['01ARZ3NDEKTSV4RRFFQ69G5FAV'])
