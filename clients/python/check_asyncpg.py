"""asyncpg against the server: default and registered codec, parameters, ulid[], NULL, COPY, time range, errors."""
import asyncio
import io
import subprocess
import sys

import asyncpg

from check_common import (BAD, BULK_ROWS, KNOWN, KNOWN_LOWER_ALIAS, KNOWN_UUID, NATIVE_UUID_INDEX, NATIVE_UUID_SETUP,
                          RANGE_COUNT, RANGE_HI,
                          RANGE_LO, RANGE_ROWS_SQL, Checks, bulk_ids)
from asyncpg_ulid import register_ulid

c = Checks("asyncpg")
ARR = [KNOWN, None, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"]
ARR_SQL = "SELECT ARRAY[$1::ulid, NULL, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ']"


async def bad_string(conn, what, sql):
    try:
        await conn.fetchval(sql, BAD)
    except asyncpg.InvalidTextRepresentationError as e:
        c.equal(f"{what}: InvalidTextRepresentationError", (e.sqlstate, e.message),
                ("22P02", f'invalid input syntax for type ulid: "{BAD}"'))
    except Exception as e:
        c.bad(f"{what}: {type(e).__name__}: {e}")
    else:
        c.bad(f"{what}: no error")


async def defaults(conn):
    c.is_ulid("default (text I/O for an unknown type): gen_ulid() is a str", await conn.fetchval("SELECT gen_ulid()"))
    c.equal("default: ulid[] is a list (NULL element too)", await conn.fetchval(ARR_SQL, KNOWN), ARR)
    c.equal("default: str parameter", await conn.fetchval("SELECT $1::ulid", KNOWN_LOWER_ALIAS), KNOWN)
    await conn.execute("CREATE TEMP TABLE t (id ulid)")
    try:
        await conn.copy_records_to_table("t", records=[(KNOWN,)])
        c.bad("default: copy_records_to_table worked without the codec (docs/clients-python.md says it needs register_ulid)")
    except asyncpg.InternalClientError as e:
        c.equal("default: copy_records_to_table needs the binary codec", str(e).split(" (")[0],
                "no binary format encoder for type ulid")
    await bad_string(conn, "default: bad string parameter", "SELECT $1::ulid")
    # asyncpg takes parameter types from the server: for `id = $1` on a ulid key that is ulid, so a
    # uuid.UUID needs the codec (registered below) or a uuid-typed parameter ($1::uuid)
    for sql in NATIVE_UUID_SETUP:
        await conn.execute(sql)
    try:
        await conn.fetchval("SELECT n FROM native_uuid WHERE id = $1", KNOWN_UUID)
        c.bad("default: WHERE id = $1 with a uuid.UUID worked without the codec (docs say it needs one)")
    except asyncpg.exceptions.DataError as e:
        c.ok(f"default: WHERE id = $1 with a uuid.UUID: $1 is ulid, the default codec wants a str (DataError: {str(e)[:60]}...)")
    c.equal("default: WHERE id = $1::uuid with a uuid.UUID (ulid = uuid)",
            await conn.fetchval("SELECT n FROM native_uuid WHERE id = $1::uuid", KNOWN_UUID), 0)
    plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN SELECT n FROM native_uuid WHERE id = $1::uuid", KNOWN_UUID))
    c.check(f"... through the index ({NATIVE_UUID_INDEX})", NATIVE_UUID_INDEX in plan, plan)


async def registered(conn):
    await register_ulid(conn)
    c.is_ulid("binary codec (register_ulid): gen_ulid()", await conn.fetchval("SELECT gen_ulid()"))
    c.equal("binary codec: a known value", await conn.fetchval("SELECT $1::text::ulid", KNOWN), KNOWN)
    c.equal("binary codec: str parameter (lower case, l for 1), sent as 16 bytes",
            await conn.fetchval("SELECT $1::ulid::text", KNOWN_LOWER_ALIAS), KNOWN)
    c.equal("uuid.UUID parameter through the uuid -> ulid cast", await conn.fetchval("SELECT $1::uuid::ulid", KNOWN_UUID), KNOWN)
    c.equal("16-byte parameter through the bytea -> ulid cast", await conn.fetchval("SELECT $1::bytea::ulid", KNOWN_UUID.bytes), KNOWN)
    for sql in NATIVE_UUID_SETUP:
        await conn.execute(sql)
    c.equal("binary codec: WHERE id = $1 with a uuid.UUID (the codec takes it as the same 16 bytes)",
            await conn.fetchval("SELECT n FROM native_uuid WHERE id = $1", KNOWN_UUID), 0)
    plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN SELECT n FROM native_uuid WHERE id = $1", KNOWN_UUID))
    c.check(f"... through the index ({NATIVE_UUID_INDEX})", NATIVE_UUID_INDEX in plan, plan)
    c.equal("binary codec: ulid[] is a list (NULL element too)", await conn.fetchval(ARR_SQL, KNOWN), ARR)
    c.equal("binary codec: NULL::ulid is None", await conn.fetchval("SELECT NULL::ulid"), None)
    await conn.execute("CREATE TEMP TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid, refs ulid[])")
    row = await conn.fetchrow("INSERT INTO t (ref, refs) VALUES ($1, $2) RETURNING ref, refs::text[]", None, ARR)
    c.equal("list parameter as ulid[] and None as NULL", tuple(row), (None, ARR))
    await conn.execute("INSERT INTO t (ref) VALUES ($1)", KNOWN)
    c.equal("WHERE ref = $1 with a str", await conn.fetchval("SELECT count(*) FROM t WHERE ref = $1", KNOWN), 1)

    ids = bulk_ids()
    await conn.execute("TRUNCATE t")
    await conn.copy_records_to_table("t", records=[(i,) for i in ids], columns=["id"])
    got = await conn.fetchrow("SELECT count(*), string_agg(id::text, ',' ORDER BY id) FROM t")
    c.equal(f"copy_records_to_table (binary COPY): {BULK_ROWS} rows, the same ids", tuple(got),
            (BULK_ROWS, ",".join(sorted(ids))))
    ids = bulk_ids()
    await conn.execute("TRUNCATE t")
    await conn.copy_to_table("t", source=io.BytesIO("".join(i + "\n" for i in ids).encode()),
                             columns=["id"], format="text")
    got = await conn.fetchrow("SELECT count(*), string_agg(id::text, ',' ORDER BY id) FROM t")
    c.equal(f"copy_to_table (COPY text): {BULK_ROWS} rows, the same ids", tuple(got), (BULK_ROWS, ",".join(sorted(ids))))

    await conn.execute("CREATE TEMP TABLE r AS " + RANGE_ROWS_SQL)
    rows = await conn.fetch("SELECT id, ulid_to_timestamp(id) AS ts FROM r"
                            " WHERE id BETWEEN ulid_min($1) AND ulid_max($2) ORDER BY id", RANGE_LO, RANGE_HI)
    c.equal("time range with ulid_min($1)/ulid_max($2) and datetime parameters", len(rows), RANGE_COUNT)
    c.equal("time range: first and last row on the bounds", [rows[0]["ts"], rows[-1]["ts"]], [RANGE_LO, RANGE_HI])

    await bad_string(conn, "binary codec: bad string as text", "SELECT $1::text::ulid")
    try:
        await conn.fetchval("SELECT $1::ulid", BAD)
        c.bad("binary codec: bad string parameter: no error")
    except asyncpg.DataError as e:
        c.ok(f"binary codec: bad string parameter is refused before sending: DataError ({e})")


async def main():
    conn = await asyncpg.connect()
    await defaults(conn)
    await conn.close()
    conn = await asyncpg.connect()
    await registered(conn)
    await conn.close()


asyncio.run(main())
demo = subprocess.run([sys.executable, "asyncpg_ulid.py"], capture_output=True, text=True)
c.equal("the recipe runs and copies 3 records", (demo.returncode, demo.stderr, demo.stdout), (0, "", "3\n"))
c.exit()
