"""Check counting and test data shared by the Python client checks (prints ok/FAIL lines)."""
import datetime
import os
import re
import sys
import uuid

import ulid_codec

KNOWN = "01ARZ3NDEKTSV4RRFFQ69G5FAV"  # a fixed ULID and its 16 bytes / uuid
KNOWN_UUID = uuid.UUID("01563e3a-b5d3-d676-4c61-efb99302bd5b")
KNOWN_LOWER_ALIAS = "01arz3ndektsv4rrffq69g5fav".replace("1", "l")  # reads as KNOWN
BAD = "01ARZ3NDEKTSV4RRFFQ69G5FAU"  # U is not Crockford Base32
ULID_RE = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")
# time-range data: one row per hour from T0 for 48 hours; [T0+10h, T0+19h] holds 10 of them
T0 = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
RANGE_LO = T0 + datetime.timedelta(hours=10)
RANGE_HI = T0 + datetime.timedelta(hours=19)
RANGE_ROWS_SQL = (
    "SELECT gen_ulid(TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL '1 hour') AS id"
    " FROM generate_series(0, 47) AS i"
)
RANGE_COUNT = 10
BULK_ROWS = 2000
# A ulid primary key for the drivers' native UUID parameters (ulid 0.3.0: ulid = uuid uses the index)
NATIVE_UUID_SETUP = [
    "CREATE TEMP TABLE native_uuid (id ulid PRIMARY KEY, n int)",
    "INSERT INTO native_uuid SELECT gen_ulid(), i FROM generate_series(1, 2000) AS i",
    f"INSERT INTO native_uuid VALUES ('{KNOWN}', 0)",
    "ANALYZE native_uuid",
]
NATIVE_UUID_INDEX = "native_uuid_pkey"


def bulk_ids(n=BULK_ROWS):
    """n random ULID strings (every 128-bit value is a ULID)."""
    return [ulid_codec.to_str(os.urandom(16)) for _ in range(n)]


def short(value, limit=300):
    """repr(value), cut to limit characters (a failed bulk comparison would print every id)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


class Checks:
    def __init__(self, driver):
        self.driver = driver
        self.count = 0
        self.failed = 0

    def ok(self, what):
        self.count += 1
        print(f"ok   {self.driver}: {what}", flush=True)

    def bad(self, what):
        self.count += 1
        self.failed += 1
        print(f"FAIL {self.driver}: {what}", flush=True)

    def note(self, what):
        print(f"# {self.driver}: {what}", flush=True)

    def equal(self, what, got, want):
        if got == want:
            self.ok(what)
        else:
            self.bad(f"{what}: got {short(got)}, expected {short(want)}")

    def check(self, what, condition, detail=""):
        if condition:
            self.ok(what)
        else:
            self.bad(f"{what}: {short(detail)}")

    def is_ulid(self, what, value):
        if isinstance(value, str) and ULID_RE.match(value):
            self.ok(f"{what}: {value}")
        else:
            self.bad(f"{what}: not a 26-character ULID string: {value!r}")

    def sqlstate(self, what, fn, want="22P02"):
        """fn() must raise the driver's error carrying SQLSTATE want."""
        try:
            fn()
        except Exception as e:  # the driver's own exception class is checked by the caller's fn
            got = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
            if got == want:
                self.ok(f"{what}: {type(e).__module__}.{type(e).__name__} {got}")
            else:
                self.bad(f"{what}: {type(e).__name__} {got}: {e}")
        else:
            self.bad(f"{what}: no error")

    def run(self, what, fn):
        """A step that must not raise (its own checks inside); an exception is one failure."""
        try:
            fn()
        except Exception as e:
            self.bad(f"{what}: {type(e).__name__}: {e}")

    def exit(self):
        print(f"# {self.driver}: {self.count} checks, {self.failed} failed")
        sys.exit(1 if self.failed or self.count == 0 else 0)
