"""SQLAlchemy ORM against the server: create_all, server default, ulid/ulid[]/NULL, bulk insert, time range, errors."""
import subprocess
import sys

import sqlalchemy as sa
from sqlalchemy.orm import Session

from check_common import (BAD, BULK_ROWS, KNOWN, KNOWN_LOWER_ALIAS, RANGE_COUNT, RANGE_HI, RANGE_LO, RANGE_ROWS_SQL,
                          Checks, bulk_ids)
from sqlalchemy_ulid import Base, Event, make_engine

c = Checks("sqlalchemy")
MAX = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"
demo = subprocess.run([sys.executable, "sqlalchemy_ulid.py"], capture_output=True, text=True)
c.equal("the recipe creates the table, inserts and finds the row in the last hour", (demo.returncode, demo.stderr,
        demo.stdout), (0, "", "26 True\n"))

engine = make_engine()
Base.metadata.create_all(engine)  # already there (the recipe made it): no error
with engine.connect() as conn:
    cols = conn.execute(sa.text("SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)"
                                " FROM pg_attribute WHERE attrelid = 'events'::regclass AND attnum > 0")).scalar()
    default = conn.execute(sa.text("SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'events'::regclass")).scalar()
c.equal("create_all: the columns", cols, "id ulid, parent ulid, tags ulid[], what text")
c.equal("create_all: id defaults to gen_ulid() on the server", default, "gen_ulid()")


def step():
    with Session(engine) as s:
        first = Event(what="first")
        s.add(first)
        s.flush()
        c.is_ulid("insert: the id from the server's default (RETURNING)", first.id)
        c.equal("insert: NULL parent and tags read back as None", (first.parent, first.tags), (None, None))
        given = Event(id=KNOWN_LOWER_ALIAS, parent=first.id, tags=[KNOWN, None, MAX], what="given")
        s.add(given)
        s.commit()
        back = s.get(Event, KNOWN)
        c.equal("a given id (lower case, l for 1), parent and ulid[] tags (NULL element too)",
                (back.id, back.parent, back.tags), (KNOWN, first.id, [KNOWN, None, MAX]))
        c.equal("select where id == a str", s.scalars(sa.select(Event.what).where(Event.id == KNOWN)).all(), ["given"])
        c.equal("select where parent IS NULL", s.scalar(sa.select(sa.func.count()).where(Event.parent.is_(None))) >= 1, True)

        ids = bulk_ids()
        s.execute(sa.insert(Event), [{"id": i, "what": "bulk"} for i in ids])
        s.commit()
        got = s.scalars(sa.select(Event.id).where(Event.what == "bulk").order_by(Event.id)).all()
        c.equal(f"bulk insert (executemany) of {BULK_ROWS} rows: the same ids in id order", got, sorted(ids))

        s.execute(sa.text("INSERT INTO events (id, what) SELECT id, 'range' FROM (" + RANGE_ROWS_SQL + ") AS r"))
        rows = s.execute(sa.select(Event.id, sa.func.ulid_to_timestamp(Event.id)).where(
            Event.what == "range", Event.id.between(sa.func.ulid_min(RANGE_LO), sa.func.ulid_max(RANGE_HI))).order_by(Event.id)).all()
        c.equal("time range with func.ulid_min/ulid_max and datetime parameters", len(rows), RANGE_COUNT)
        c.equal("time range: first and last row on the bounds", [rows[0][1], rows[-1][1]], [RANGE_LO, RANGE_HI])

    with Session(engine) as s:
        try:
            s.add(Event(id=BAD, what="bad"))
            s.flush()
            c.bad("bad string: no error")
        except sa.exc.DataError as e:
            c.equal("bad string: sqlalchemy.exc.DataError from psycopg2's InvalidTextRepresentation",
                    (type(e.orig).__name__, e.orig.pgcode), ("InvalidTextRepresentation", "22P02"))


c.run("checks", step)
c.exit()
