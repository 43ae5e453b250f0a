"""SQLAlchemy: a ulid column type (str in Python); the server generates the primary key."""
import datetime

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session, declarative_base

from psycopg2_ulid import register_ulid


class ULID(sa.types.UserDefinedType):
    cache_ok = True

    def get_col_spec(self, **kw):
        return "ulid"

    def bind_expression(self, bindvalue):
        return sa.cast(sa.type_coerce(bindvalue, sa.Text), self)  # CAST(%(param)s AS ulid): any driver


Base = declarative_base()


class Event(Base):
    __tablename__ = "events"
    id = sa.Column(ULID, primary_key=True, server_default=sa.text("gen_ulid()"))
    parent = sa.Column(ULID, nullable=True)
    tags = sa.Column(ARRAY(ULID))
    what = sa.Column(sa.Text, nullable=False)


def make_engine(url="postgresql+psycopg2://"):  # PG* environment variables
    engine = sa.create_engine(url, future=True)
    sa.event.listen(engine, "connect", lambda dbapi_conn, _: register_ulid(dbapi_conn))  # ulid[] -> list
    return engine


if __name__ == "__main__":
    engine = make_engine()
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        event = Event(what="signup")
        session.add(event)
        session.commit()  # INSERT ... RETURNING events.id
        now = datetime.datetime.now(datetime.timezone.utc)
        recent = session.scalars(sa.select(Event).where(
            Event.id.between(sa.func.ulid_min(now - datetime.timedelta(hours=1)), sa.func.ulid_max(now)))).all()
        print(len(event.id), event in recent)  # 26 True
