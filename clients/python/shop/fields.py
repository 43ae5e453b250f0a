"""Django: ulid model fields (str in Python); ULIDAutoField's value comes from the server's gen_ulid()."""
from django.db import models
from django.db.models.fields import AutoFieldMixin
from django.db.backends.signals import connection_created


class ULIDField(models.Field):
    description = "ULID (the ulid extension's type)"
    empty_strings_allowed = False  # no value is None (NULL), never ""

    def db_type(self, connection):
        return "ulid"


class ULIDAutoField(AutoFieldMixin, ULIDField):
    """A primary key the server generates: INSERT leaves it out and reads it back with RETURNING."""

    def db_type(self, connection):
        return "ulid DEFAULT gen_ulid()"

    def rel_db_type(self, connection):
        return "ulid"  # a foreign key to it is a plain ulid column

    def cast_db_type(self, connection):
        return "ulid"  # in a cast (Django 5 casts one side of a join on it), the type alone


def _register_ulid(sender, connection, **kwargs):
    # ulid[] (ArrayField(ULIDField())) as a list of str, with the driver Django uses: psycopg 3 when
    # it is installed (Django 4.2 and later), psycopg2 otherwise
    raw = connection.connection
    if type(raw).__module__.startswith("psycopg2"):
        from psycopg2_ulid import register_ulid
    else:
        from psycopg_ulid import register_ulid
    register_ulid(raw)


connection_created.connect(_register_ulid)
