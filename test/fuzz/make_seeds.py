#!/usr/bin/env python3
"""Writes the seed corpora in test/fuzz/corpus/<target>/ (the files are committed; rerun after
changing a target's input format). Seeds are the spec's edge cases; libFuzzer mutates from them.

    python3 test/fuzz/make_seeds.py
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
SPEC = "01ARZ3NDEKTSV4RRFFQ69G5FAV"  # the example of the ULID spec
MAX_MS = (1 << 48) - 1
ENTROPY_MASK = (1 << 80) - 1


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode("latin-1")
    path = os.path.join(HERE, "corpus", target, name)
    with open(path, "wb") as f:
        f.write(data)


def ulid_bytes(text):
    x = 0
    for c in text:
        x = x * 32 + ALPHABET.index(c)
    return x.to_bytes(16, "big")


def value(ms, entropy):
    return ((ms << 80) | entropy).to_bytes(16, "big")


# ---- fuzz_decode: text ----------------------------------------------------------------------
def decode_seeds():
    t = "fuzz_decode"
    write(t, "spec_example", SPEC)
    write(t, "all_zeros", "0" * 26)
    write(t, "max_value", "7" + "Z" * 25)
    write(t, "max_value_lowercase", "7" + "z" * 25)
    write(t, "overflow_8", "8" + "0" * 25)
    write(t, "overflow_Z", "Z" * 26)
    write(t, "lowercase", SPEC.lower())
    write(t, "aliases", "0IiLlOo" + SPEC[7:])  # reads as 0111100 + the rest
    write(t, "alias_first_O", "O" + SPEC[1:])
    write(t, "U_last", SPEC[:25] + "U")
    write(t, "u_first", "u" + SPEC[1:])
    write(t, "hyphen", SPEC[:10] + "-" + SPEC[11:])
    write(t, "space", SPEC[:13] + " " + SPEC[14:])
    write(t, "nul_inside", SPEC[:5] + "\0" + SPEC[6:])
    write(t, "high_byte_80", "\x80" + "0" * 25)
    write(t, "high_byte_ff", "\xff" * 26)
    write(t, "latin1_last", SPEC[:25] + "\xc9")
    write(t, "utf8_e_acute_27_bytes", (SPEC[:25] + "\u00e9").encode("utf-8"))
    write(t, "fullwidth_digit", ("\uff10" + SPEC[1:]).encode("utf-8"))
    write(t, "length_0", "")
    write(t, "length_1", "0")
    write(t, "length_25", SPEC[:25])
    write(t, "length_27", SPEC + "0")
    write(t, "trailing_newline", SPEC + "\n")
    write(t, "uuid_text", "01563e3a-b5d3-d676-4c61-efb99302bd5b")


# ---- fuzz_binary: consecutive 16-byte values ----------------------------------------------------
def binary_seeds():
    t = "fuzz_binary"
    write(t, "spec_example", ulid_bytes(SPEC))
    write(t, "all_zeros", bytes(16))
    write(t, "all_ones", b"\xff" * 16)
    write(t, "max_time_zero_entropy", value(MAX_MS, 0))
    write(t, "zero_time_full_entropy", value(0, ENTROPY_MASK))
    write(t, "time_entropy_boundary", value(1, 0) + value(0, ENTROPY_MASK))  # adjacent, descending
    write(t, "half_boundary", bytes([0] * 7 + [0xFF] + [0] * 8) + bytes([0] * 8 + [0x80] + [0] * 7))
    write(t, "sign_bits", b"\x80" * 16 + b"\x7f" * 16 + b"\x00" * 15 + b"\x01")
    write(t, "equal_pair", ulid_bytes(SPEC) * 2)
    write(t, "short_5", b"\x01\x56\x3e\x3a\xb5")
    write(t, "pg_epoch_ms", value(946684800000, 0x123456789ABCDEF01234))


# ---- fuzz_generator: a script for FuzzedDataProvider --------------------------------------------
class Script:
    """Builds an input for fuzz_generator.cpp: ConsumeData reads from the front, integers from the
    back (in consumption order; the first byte of a multi-byte integer is the most significant)."""

    def __init__(self, stream_seed=0x0123456789ABCDEF):
        self.front = bytearray()
        self.back = bytearray()
        self.back += struct.pack(">Q", stream_seed)  # StreamRandom seed

    def data(self, b):
        self.front += b

    def byte(self, v):
        self.back.append(v)

    def u16(self, v):
        self.back += struct.pack(">H", v)

    def reset(self):
        self.byte(0)

    def restore(self, v16, near_overflow_gap=None):
        self.byte(1)
        self.data(v16)
        if near_overflow_gap is None:
            self.byte(0)  # ConsumeBool false
        else:
            self.byte(1)
            self.byte(near_overflow_gap)

    def discard_pool(self):
        self.byte(2)

    def draw_kept(self, fail=False):
        self.byte(3)
        self.byte(1 if fail else 0)
        if not fail:
            self.data(bytes(range(0xA0, 0xAA)))

    def wipe_kept(self):
        self.byte(4)

    # clock modes of pick_clock()
    def gen(self, clock_mode, clock_arg=None, source=0, fail=False, entropy=None):
        self.byte(5)
        self.byte(clock_mode)
        if clock_mode in (1, 2):
            self.u16(clock_arg - 1)  # a step of 1 + (u16 % 1000) milliseconds
        elif clock_mode in (5, 7, 8):
            self.byte(clock_arg)
        elif clock_mode == 6:
            self.u16(clock_arg)
        elif clock_mode == 4:
            self.back += struct.pack(">Q", clock_arg)
        elif clock_mode == 9:
            self.back += struct.pack(">I", clock_arg)
        self.byte(source)
        self.byte(0 if fail else 1)  # fail when the range 0..7 gives 0
        if source == 1 and not fail:
            self.data(entropy if entropy is not None else bytes(10))
        if source == 0 and entropy is not None:
            self.data(entropy)

    def bytes(self):
        return bytes(self.front) + bytes(reversed(self.back))


def generator_seeds():
    t = "fuzz_generator"

    s = Script()  # same millisecond until the entropy overflows, then a later millisecond
    s.restore(value(1700000000000, 0), near_overflow_gap=2)
    for _ in range(4):
        s.gen(3)  # the state's millisecond: +1, +1, overflow, overflow
    s.gen(1, 1, source=0, entropy=b"\xff" * 10)  # next ms with all-one entropy
    s.gen(0)  # same ms: overflow at once
    s.gen(2, 5)  # clock went back: still overflow
    write(t, "entropy_overflow", s.bytes())

    s = Script()  # the largest millisecond and beyond
    s.gen(5, 0, source=0, entropy=bytes(10))
    s.gen(0)
    s.gen(6, 0)  # kMaxUnixMs + 1
    s.gen(7, 0)  # UINT64_MAX
    s.gen(3)  # the state's millisecond again: increment
    s.gen(2, 7)  # the clock goes back 7 ms: increment again
    write(t, "max_time", s.bytes())

    s = Script()  # prefetched draws: used once, wiped, failed, never drawn; the pool
    s.draw_kept()
    s.gen(9, 0, source=3)
    s.gen(1, 1, source=3)  # already used: random_failure
    s.draw_kept()
    s.wipe_kept()
    s.gen(1, 1, source=3)
    s.gen(1, 1, source=1, fail=True)
    s.gen(1, 1, source=2)
    s.gen(1, 1, source=1, entropy=bytes(range(10)))
    s.gen(1, 1, source=4, fail=True)  # empty pool must refill: fails
    s.gen(1, 1, source=4)
    s.discard_pool()
    s.gen(1, 1, source=4)
    write(t, "prefetch_and_pool", s.bytes())

    s = Script()  # a fresh process after reset, at an earlier time; clock at zero
    s.gen(9, 1000, source=0, entropy=b"\x11" * 10)
    s.reset()
    s.gen(8, 0, source=0, entropy=b"\x22" * 10)
    s.gen(8, 0)
    s.gen(4, 0xFFFFFFFFFFFFFFFF)
    write(t, "reset_and_zero", s.bytes())

    write(t, "zeros_64", bytes(64))
    write(t, "ones_64", b"\xff" * 64)


def public_id_seeds():
    t = "fuzz_public_id"
    plain = bytes.fromhex("00112233445566778899aabbccddeeff")
    write(t, "fips_c1_aes128", bytes([16]) + bytes(range(16)) + plain)
    write(t, "fips_c3_aes256", bytes([32]) + bytes(range(32)) + plain + b"\xff" * 16)
    write(t, "bad_length_24", bytes([24]) + bytes(24) + plain)
    write(t, "empty_key", bytes([0]) + plain)
    write(t, "hex_key_128", "000102030405060708090a0b0c0d0E0F")
    write(t, "hex_key_256", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
    write(t, "hex_bad_digit", "000102030405060708090a0b0c0d0e0g")


def main():
    for target, make in (("fuzz_decode", decode_seeds), ("fuzz_binary", binary_seeds),
                         ("fuzz_generator", generator_seeds), ("fuzz_public_id", public_id_seeds)):
        d = os.path.join(HERE, "corpus", target)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        make()


if __name__ == "__main__":
    main()
