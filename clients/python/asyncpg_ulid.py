"""asyncpg: a binary codec for ulid (str in Python), which binary COPY (copy_records_to_table) needs."""
import asyncio

import asyncpg

import ulid_codec


async def register_ulid(conn, schema="public"):
    """Once per connection (or pass it as init= to asyncpg.create_pool): ulid and ulid[] as str."""
    await conn.set_type_codec("ulid", schema=schema, format="binary",
                              encoder=ulid_codec.to_bytes, decoder=ulid_codec.to_str)


async def main():
    conn = await asyncpg.connect()  # PG* environment variables
    await register_ulid(conn)
    await conn.execute("CREATE TEMP TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), what text)")
    ids = [r["id"] for r in await conn.fetch("SELECT gen_ulid() AS id FROM generate_series(1, 3)")]
    await conn.copy_records_to_table("events", records=[(i, "imported") for i in ids])
    print(await conn.fetchval("SELECT count(*) FROM events WHERE id = ANY($1)", ids))  # 3
    await conn.close()


if __name__ == "__main__":
    asyncio.run(main())
