"""ULID text <-> 16 bytes (Crockford Base32), for drivers that transfer ulid in binary."""
import uuid

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_VALUE.update({c.lower(): i for c, i in list(_VALUE.items())})
_VALUE.update({"I": 1, "i": 1, "L": 1, "l": 1, "O": 0, "o": 0})


def to_bytes(text) -> bytes:
    """The 16 bytes of a 26-character ULID (as the server's ulid_in reads it), or of a uuid.UUID
    (the same 16 bytes: a key moved from uuid to ulid keeps taking the application's UUIDs)."""
    if isinstance(text, uuid.UUID):
        return text.bytes
    if len(text) != 26 or any(c not in _VALUE for c in text) or _VALUE[text[0]] > 7:
        raise ValueError(f"invalid ULID: {text!r}")
    n = 0
    for c in text:
        n = n << 5 | _VALUE[c]
    return n.to_bytes(16, "big")


def to_str(data: bytes) -> str:
    """The 26 uppercase characters of 16 ULID bytes (as the server's ulid_out writes them)."""
    if len(data) != 16:
        raise ValueError(f"a ULID is 16 bytes, not {len(data)}")
    n = int.from_bytes(data, "big")
    return "".join(ALPHABET[(n >> shift) & 31] for shift in range(125, -1, -5))
