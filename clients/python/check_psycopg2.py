"""psycopg2 against the server: reads, parameters, ulid[], NULL, COPY (text), time range, errors."""
import io
import subprocess
import sys

import psycopg2
import psycopg2.errors
import psycopg2.extras

from check_common import (BAD, BULK_ROWS, KNOWN, KNOWN_LOWER_ALIAS, KNOWN_UUID, NATIVE_UUID_INDEX, NATIVE_UUID_SETUP,
                          RANGE_COUNT, RANGE_HI,
                          RANGE_LO, RANGE_ROWS_SQL, Checks, bulk_ids)
from psycopg2_ulid import register_ulid

c = Checks("psycopg2")
conn = psycopg2.connect("")
conn.autocommit = True
cur = conn.cursor()


def one(sql, params=None):
    cur.execute(sql, params)
    return cur.fetchone()[0]


c.is_ulid("text (psycopg2 has no binary mode), default: gen_ulid() is a str", one("SELECT gen_ulid()"))
c.equal("default: ulid[] is one unparsed str", one("SELECT ARRAY[%s::ulid]", [KNOWN]), "{" + KNOWN + "}")
register_ulid(conn)
arr = [KNOWN, None, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"]
c.equal("registered: ulid[] is a list (NULL element too)",
        one("SELECT ARRAY[%s::ulid, NULL, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ']", [KNOWN]), arr)
c.equal("NULL::ulid is None", one("SELECT NULL::ulid"), None)

cur.execute("CREATE TEMP TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid, refs ulid[])")
c.equal("str parameter (lower case, l for 1) into a ulid column",
        one("INSERT INTO t (ref) VALUES (%s) RETURNING ref", [KNOWN_LOWER_ALIAS]), KNOWN)
c.equal("WHERE ref = %s with a str", one("SELECT count(*) FROM t WHERE ref = %s", [KNOWN]), 1)
psycopg2.extras.register_uuid()
c.equal("uuid.UUID parameter (register_uuid) through the uuid -> ulid cast", one("SELECT %s::ulid", [KNOWN_UUID]), KNOWN)
c.equal("16-byte parameter through the bytea -> ulid cast", one("SELECT %s::ulid", [KNOWN_UUID.bytes]), KNOWN)
for sql in NATIVE_UUID_SETUP:
    cur.execute(sql)
c.equal("WHERE id = %s with a uuid.UUID ('...'::uuid) on a ulid key (ulid = uuid)",
        one("SELECT n FROM native_uuid WHERE id = %s", [KNOWN_UUID]), 0)
cur.execute("EXPLAIN SELECT n FROM native_uuid WHERE id = %s", [KNOWN_UUID])
plan = "\n".join(r[0] for r in cur.fetchall())
c.check(f"... through the index ({NATIVE_UUID_INDEX})", NATIVE_UUID_INDEX in plan, plan)
c.equal("list parameter as ulid[] and None as NULL",
        cur.execute("INSERT INTO t (ref, refs) VALUES (%s, %s::ulid[]) RETURNING ref, refs", [None, arr]) or cur.fetchone(),
        (None, arr))

ids = bulk_ids()
cur.execute("TRUNCATE t")
cur.copy_expert("COPY t (id) FROM STDIN", io.StringIO("".join(i + "\n" for i in ids)))
cur.execute("SELECT count(*), string_agg(id::text, ',' ORDER BY id) FROM t")
c.equal(f"COPY FROM STDIN (text, copy_expert): {BULK_ROWS} rows, the same ids", cur.fetchone(),
        (BULK_ROWS, ",".join(sorted(ids))))
out = io.StringIO()
cur.copy_expert("COPY (SELECT id FROM t ORDER BY id) TO STDOUT", out)
c.equal("COPY TO STDOUT (text): the same ids", out.getvalue().split(), sorted(ids))
c.note("COPY (FORMAT binary): not offered by psycopg2 (it neither writes nor parses the binary format)")

cur.execute("CREATE TEMP TABLE r AS " + RANGE_ROWS_SQL)
cur.execute("SELECT ulid_to_timestamp(id) FROM r WHERE id BETWEEN ulid_min(%s) AND ulid_max(%s) ORDER BY id",
            [RANGE_LO, RANGE_HI])
times = [r[0] for r in cur.fetchall()]
c.equal("time range with ulid_min(%s)/ulid_max(%s) and datetime parameters", len(times), RANGE_COUNT)
c.equal("time range: first and last row on the bounds", [times[0], times[-1]], [RANGE_LO, RANGE_HI])

c.sqlstate("bad string: psycopg2.errors.InvalidTextRepresentation", lambda: one("SELECT %s::ulid", [BAD]))
try:
    one("SELECT %s::ulid", [BAD])
except psycopg2.errors.InvalidTextRepresentation as e:
    c.equal("bad string: the server's message", e.diag.message_primary, f'invalid input syntax for type ulid: "{BAD}"')

demo = subprocess.run([sys.executable, "psycopg2_ulid.py"], capture_output=True, text=True)
c.equal("the recipe runs", (demo.returncode, demo.stderr), (0, ""))
c.equal("the recipe prints a str id and a list", demo.stdout[:2] + demo.stdout[28:], f"('', ['{KNOWN}'])\n")
c.exit()
