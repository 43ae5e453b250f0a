"""Django ORM against the server: the migration, server-generated keys, FK, ulid[]/NULL, bulk_create, time range, errors."""
import io
import os

import django
from django.core.management import call_command

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "check_django_settings")
django.setup()

from django.db import DataError, connection  # noqa: E402 (after setup)
from django.db.models import Func, Value  # noqa: E402

from check_common import (BAD, BULK_ROWS, KNOWN, KNOWN_LOWER_ALIAS, RANGE_COUNT, RANGE_HI, RANGE_LO, RANGE_ROWS_SQL,  # noqa: E402
                          Checks, bulk_ids)
from shop.fields import ULIDField  # noqa: E402
from shop.models import Event  # noqa: E402

c = Checks("django")
MAX = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"


def step():
    out = io.StringIO()
    call_command("makemigrations", "shop", check=True, dry_run=True, stdout=out)
    c.equal("makemigrations --check: the committed migration matches the models", out.getvalue().strip(),
            "No changes detected in app 'shop'")
    call_command("migrate", "shop", stdout=io.StringIO())
    with connection.cursor() as cur:
        cur.execute("SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum),"
                    " (SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'shop_event'::regclass)"
                    " FROM pg_attribute WHERE attrelid = 'shop_event'::regclass AND attnum > 0")
        c.equal("migrate: the columns and gen_ulid() default", cur.fetchone(),
                ("id ulid, tags ulid[], what text, parent_id ulid", "gen_ulid()"))

    first = Event.objects.create(what="first")
    c.is_ulid("create: the id from the server's default (RETURNING)", first.id)
    c.equal("create: NULL parent and tags", (first.parent_id, first.tags), (None, None))
    Event.objects.create(id=KNOWN_LOWER_ALIAS, parent=first, tags=[KNOWN, None, MAX], what="given")
    back = Event.objects.get(pk=KNOWN)
    c.equal("a given id (lower case, l for 1), the foreign key and ulid[] tags (NULL element too)",
            (back.id, back.parent_id, back.tags), (KNOWN, first.id, [KNOWN, None, MAX]))
    c.equal("filter through the foreign key", list(Event.objects.filter(parent__what="first").values_list("what", flat=True)),
            ["given"])
    c.equal("filter parent__isnull", Event.objects.filter(parent__isnull=True).exists(), True)

    ids = bulk_ids()
    Event.objects.bulk_create([Event(id=i, what="bulk") for i in ids])
    c.equal(f"bulk_create of {BULK_ROWS} rows with ids: the same ids in id order",
            list(Event.objects.filter(what="bulk").order_by("id").values_list("id", flat=True)), sorted(ids))

    with connection.cursor() as cur:
        cur.execute("INSERT INTO shop_event (id, what) SELECT id, 'range' FROM (" + RANGE_ROWS_SQL + ") AS r")
    lo = Func(Value(RANGE_LO), function="ulid_min", output_field=ULIDField())
    hi = Func(Value(RANGE_HI), function="ulid_max", output_field=ULIDField())
    in_range = Event.objects.filter(what="range", id__range=(lo, hi)).order_by("id").values_list("id", flat=True)
    c.equal("time range: id__range=(ulid_min(…), ulid_max(…)) with datetime values", len(in_range), RANGE_COUNT)
    with connection.cursor() as cur:
        cur.execute("SELECT ulid_to_timestamp(%s), ulid_to_timestamp(%s)", [in_range[0], in_range[RANGE_COUNT - 1]])
        c.equal("time range: first and last row on the bounds", list(cur.fetchone()), [RANGE_LO, RANGE_HI])

    try:
        Event.objects.filter(id=BAD).exists()
        c.bad("bad string: no error")
    except DataError as e:
        cause = e.__cause__  # psycopg2's error has pgcode, psycopg 3's sqlstate
        c.equal("bad string: django.db.DataError from the driver's InvalidTextRepresentation",
                (type(cause).__name__, getattr(cause, "pgcode", None) or getattr(cause, "sqlstate", None)),
                ("InvalidTextRepresentation", "22P02"))


c.run("checks", step)
c.exit()
