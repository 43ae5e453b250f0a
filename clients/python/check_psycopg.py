"""psycopg 3 against the server: text and binary reads, parameters, ulid[], NULL, COPY, time range, errors."""
import datetime
import subprocess
import sys
import uuid

import psycopg

from check_common import (BAD, BULK_ROWS, KNOWN, KNOWN_LOWER_ALIAS, KNOWN_UUID, NATIVE_UUID_INDEX,
                          NATIVE_UUID_SETUP, RANGE_COUNT, RANGE_HI, RANGE_LO, RANGE_ROWS_SQL, Checks, bulk_ids)
from psycopg_ulid import register_ulid

c = Checks("psycopg")
conn = psycopg.connect(autocommit=True)

# defaults, before any registration
c.is_ulid("text mode, default: gen_ulid() is a str", conn.execute("SELECT gen_ulid()").fetchone()[0])
raw = conn.cursor(binary=True).execute("SELECT %s::ulid", [KNOWN]).fetchone()[0]
c.equal("binary mode, default: the 16 raw bytes", raw, KNOWN_UUID.bytes)
c.equal("text mode, default: ulid[] is one unparsed str", conn.execute("SELECT ARRAY[%s::ulid]", [KNOWN]).fetchone()[0],
        "{" + KNOWN + "}")

register_ulid(conn)
text = conn.cursor()
binary = conn.cursor(binary=True)
c.is_ulid("text mode: gen_ulid()", text.execute("SELECT gen_ulid()").fetchone()[0])
c.is_ulid("binary mode (registered loader): gen_ulid()", binary.execute("SELECT gen_ulid()").fetchone()[0])
c.equal("binary mode: a known value", binary.execute("SELECT %s::ulid", [KNOWN]).fetchone()[0], KNOWN)

conn.execute("CREATE TEMP TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid, refs ulid[])")
conn.execute("INSERT INTO t (ref) VALUES (%s)", [KNOWN_LOWER_ALIAS])  # str parameter, sent as text (unknown type)
c.equal("str parameter (lower case, l for 1) read back", text.execute("SELECT ref FROM t").fetchone()[0], KNOWN)
c.equal("WHERE ref = %s with a str",
        text.execute("SELECT count(*) FROM t WHERE ref = %s", [KNOWN]).fetchone()[0], 1)
c.equal("binary parameter %b: uuid.UUID through the uuid -> ulid cast",
        text.execute("SELECT %b::ulid", [KNOWN_UUID]).fetchone()[0], KNOWN)
c.equal("binary parameter %b: 16 bytes through the bytea -> ulid cast",
        text.execute("SELECT %b::ulid", [KNOWN_UUID.bytes]).fetchone()[0], KNOWN)
for sql in NATIVE_UUID_SETUP:
    conn.execute(sql)
for fmt in ("%s", "%b"):  # uuid.UUID is sent typed uuid, in text and in binary
    c.equal(f"WHERE id = {fmt} with a uuid.UUID on a ulid key (ulid = uuid)",
            text.execute(f"SELECT n FROM native_uuid WHERE id = {fmt}", [KNOWN_UUID]).fetchone()[0], 0)
    plan = "\n".join(r[0] for r in text.execute(f"EXPLAIN SELECT n FROM native_uuid WHERE id = {fmt}", [KNOWN_UUID]))
    c.check(f"... through the index ({NATIVE_UUID_INDEX})", NATIVE_UUID_INDEX in plan, plan)
c.equal("WHERE id = ANY(%s) with a list of uuid.UUID (uuid[])",
        text.execute("SELECT count(*) FROM native_uuid WHERE id = ANY(%s)", [[KNOWN_UUID, uuid.uuid4()]]).fetchone()[0], 1)
c.equal("WHERE ref = %b::ulid with a uuid.UUID",
        text.execute("SELECT count(*) FROM t WHERE ref = %b::ulid", [KNOWN_UUID]).fetchone()[0], 1)
c.equal("INSERT of a uuid.UUID into a ulid column (assignment cast)",
        text.execute("INSERT INTO t (ref) VALUES (%b) RETURNING ref", [KNOWN_UUID]).fetchone()[0], KNOWN)

arr = [KNOWN, None, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"]
for name, cur in (("text", text), ("binary", binary)):
    c.equal(f"{name} mode: ulid[] read as a list (NULL element too)",
            cur.execute("SELECT ARRAY[%s::ulid, NULL, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ']", [KNOWN]).fetchone()[0], arr)
    c.equal(f"{name} mode: NULL::ulid is None", cur.execute("SELECT NULL::ulid").fetchone()[0], None)
row = text.execute("INSERT INTO t (ref, refs) VALUES (%s, %s::ulid[]) RETURNING ref, refs::text[]", [None, arr]).fetchone()
c.equal("list parameter as ulid[] and None as NULL", row, (None, arr))

for fmt in ("text", "binary"):
    ids = bulk_ids()
    conn.execute("TRUNCATE t")
    with text.copy(f"COPY t (id) FROM STDIN (FORMAT {fmt})") as copy:
        if fmt == "binary":
            copy.set_types(["ulid"])
        for i in ids:
            copy.write_row([i])
    got = text.execute("SELECT count(*), string_agg(id::text, ',' ORDER BY id) FROM t").fetchone()
    c.equal(f"COPY FROM STDIN (FORMAT {fmt}): {BULK_ROWS} rows, the same ids", got, (BULK_ROWS, ",".join(sorted(ids))))
    with binary.copy(f"COPY (SELECT id FROM t ORDER BY id) TO STDOUT (FORMAT {fmt})") as copy:
        if fmt == "binary":
            copy.set_types(["ulid"])
        out = [row[0] for row in copy.rows()]
    c.equal(f"COPY TO STDOUT (FORMAT {fmt}): the same ids as str", out, sorted(ids))

conn.execute("CREATE TEMP TABLE r AS " + RANGE_ROWS_SQL)
rows = binary.execute("SELECT id FROM r WHERE id BETWEEN ulid_min(%s) AND ulid_max(%s) ORDER BY id",
                      [RANGE_LO, RANGE_HI]).fetchall()
c.equal("time range with ulid_min(%s)/ulid_max(%s) and datetime parameters", len(rows), RANGE_COUNT)
c.equal("time range: first and last row on the bounds",
        [text.execute("SELECT ulid_to_timestamp(%s)", [rows[i][0]]).fetchone()[0] for i in (0, -1)], [RANGE_LO, RANGE_HI])

# ulid 0.4.0: id compared with a time. An aware datetime is sent as timestamptz; a naive one as
# timestamp, which reaches ulid >= timestamptz through core's implicit cast in the session's zone.
rows = binary.execute("SELECT id FROM r WHERE id >= %s AND id <= %s ORDER BY id", [RANGE_LO, RANGE_HI]).fetchall()
c.equal("time range as id >= %s AND id <= %s with aware datetimes", len(rows), RANGE_COUNT)
plan = " ".join(r[0] for r in text.execute("EXPLAIN (COSTS OFF) SELECT id FROM r WHERE id >= %s", [RANGE_LO]).fetchall())
c.check("the plan of id >= %s (aware datetime) compares ulid bounds", "'::ulid" in plan and "timestamp" not in plan, plan)
naive_lo, naive_hi = RANGE_LO.replace(tzinfo=None), RANGE_HI.replace(tzinfo=None)
text.execute("SET TimeZone = 'UTC'")
c.equal("naive datetimes in a UTC session: the same rows",
        len(text.execute("SELECT id FROM r WHERE id >= %s AND id <= %s", [naive_lo, naive_hi]).fetchall()), RANGE_COUNT)
text.execute("SET TimeZone = 'Asia/Kolkata'")  # UTC+05:30: the naive times are read 5.5 hours earlier
got = text.execute("SELECT count(*), min(ulid_to_timestamp(id)) FROM r WHERE id >= %s AND id <= %s",
                   [naive_lo, naive_hi]).fetchone()
c.equal("naive datetimes in an Asia/Kolkata session: read in that zone (04:30 to 13:30 UTC)",
        (got[0], got[1].astimezone(datetime.timezone.utc)),
        (9, datetime.datetime(2024, 1, 1, 5, 0, tzinfo=datetime.timezone.utc)))
text.execute("RESET TimeZone")

c.sqlstate("bad string: psycopg.errors.InvalidTextRepresentation",
           lambda: conn.execute("SELECT %s::ulid", [BAD]))
try:
    conn.execute("SELECT %s::ulid", [BAD])
except psycopg.errors.InvalidTextRepresentation as e:
    c.equal("bad string: the server's message", e.diag.message_primary, f'invalid input syntax for type ulid: "{BAD}"')

demo = subprocess.run([sys.executable, "psycopg_ulid.py"], capture_output=True, text=True)
c.equal("the recipe runs", (demo.returncode, demo.stderr), (0, ""))
c.equal("the recipe prints a str id from a binary cursor", demo.stdout[:2] + demo.stdout[28:], "('', 'signup')\n")
c.exit()
