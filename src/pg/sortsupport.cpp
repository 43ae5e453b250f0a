// B-tree sort support: abbreviated keys (the first 8 bytes, big-endian) and skip support (18+).
// Both follow PostgreSQL's own for uuid (src/backend/utils/adt/uuid.c), whose bytes are ordered as
// ours are; each function below names the one it mirrors and what differs. PostgreSQL calls the
// callbacks through function pointers, outside ULID_FUNCTION's catch-all: they are noexcept and call
// nothing that throws (PostgreSQL's own errors are longjmps, not exceptions).
#include "datum.hpp"
#include "entry.hpp"

extern "C" {
#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "port/pg_bswap.h"
#include "utils/guc.h"
#if PG_VERSION_NUM >= 180000
#include "utils/skipsupport.h"
#endif
}

using namespace ulid;
using namespace ulid::pg;

namespace {

// trace_sort exists on 18+ always, before that when TRACE_SORT is defined (the default).
bool tracing() noexcept
{
#if defined(TRACE_SORT) || PG_VERSION_NUM >= 180000
    return trace_sort;
#else
    return false;
#endif
}

// Abbreviation state: HyperLogLog estimate of distinct abbreviated keys (uuid_sortsupport_state).
struct AbbrevState {
    int64 input_count;
    bool estimating;
    hyperLogLogState distinct;
};

// uuid_fast_cmp, but -1, 0 or 1 (compare()) where uuid returns memcmp's raw difference.
int full_compare(Datum x, Datum y, SortSupport) noexcept
{
    return compare(*datum_to_ulid(x), *datum_to_ulid(y));
}

// A copy of uuid_abbrev_convert: the first sizeof(Datum) bytes, counted into the HyperLogLog, then
// read as a native unsigned integer.
Datum abbrev_convert(Datum original, SortSupport ssup) noexcept
{
    auto *state = static_cast<AbbrevState *>(ssup->ssup_extra);
    Datum key;
    memcpy(&key, datum_to_ulid(original)->bytes, sizeof(Datum));
    state->input_count += 1;
    if (state->estimating) {
#if SIZEOF_DATUM == 8
        const uint32 folded = static_cast<uint32>(key) ^ static_cast<uint32>(key >> 32);
#else
        const uint32 folded = static_cast<uint32>(key);
#endif
        addHyperLogLog(&state->distinct, DatumGetUInt32(hash_uint32(folded)));
    }
    // Big-endian bytes read as a native unsigned integer keep byte order = integer order.
    return DatumBigEndianToNative(key);
}

// uuid_abbrev_abort's rule: give up on abbreviation when fewer than one distinct key per ~2000
// rows. Differs in its trace_sort lines only: they say ulid_abbrev, the abort line leaves out the
// threshold, and before 18 they follow TRACE_SORT through tracing() instead of an #ifdef.
bool abbrev_abort(int memtupcount, SortSupport ssup) noexcept
{
    auto *state = static_cast<AbbrevState *>(ssup->ssup_extra);
    if (memtupcount < 10000 || state->input_count < 10000 || !state->estimating)
        return false;

    const double distinct = estimateHyperLogLog(&state->distinct);
    if (distinct > 100000.0) {
        if (tracing())
            elog(LOG, "ulid_abbrev: estimation ends at cardinality %f after " INT64_FORMAT
                      " values (%d rows)",
                 distinct, state->input_count, memtupcount);
        state->estimating = false;
        return false;
    }
    if (distinct < state->input_count / 2000.0 + 0.5) {
        if (tracing())
            elog(LOG, "ulid_abbrev: aborting abbreviation at cardinality %f after " INT64_FORMAT
                      " values (%d rows)",
                 distinct, state->input_count, memtupcount);
        return true;
    }
    if (tracing())
        elog(LOG, "ulid_abbrev: cardinality %f after " INT64_FORMAT " values (%d rows)", distinct,
             state->input_count, memtupcount);
    return false;
}

} // namespace

#if PG_VERSION_NUM < 150000
// PostgreSQL 13 and 14's uuid_cmp_abbrev (15 replaced it by ssup_datum_unsigned_cmp).
int ulid_abbrev_unsigned_cmp(Datum x, Datum y, SortSupport) noexcept
{
    return x < y ? -1 : (x > y ? 1 : 0);
}
#endif

// uuid_sortsupport, with ULID_ABBREV_CMP (compat.h) for ssup_datum_unsigned_cmp before 15.
ULID_FUNCTION(ulid_sortsupport)
{
    SortSupport ssup = reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0));
    ssup->comparator = full_compare;
    ssup->ssup_extra = nullptr;

    if (ssup->abbreviate) {
        MemoryContext old = MemoryContextSwitchTo(ssup->ssup_cxt);
        auto *state = static_cast<AbbrevState *>(palloc(sizeof(AbbrevState)));
        state->input_count = 0;
        state->estimating = true;
        initHyperLogLog(&state->distinct, 10);
        ssup->ssup_extra = state;
        ssup->comparator = ULID_ABBREV_CMP;
        ssup->abbrev_converter = abbrev_convert;
        ssup->abbrev_abort = abbrev_abort;
        ssup->abbrev_full_comparator = full_compare;
        MemoryContextSwitchTo(old);
    }
    PG_RETURN_VOID();
}

#ifdef ULID_HAVE_SKIPSUPPORT
namespace {

// Skip support walks the 128-bit value as an unsigned integer, as uuid_increment and
// uuid_decrement do byte by byte: here step() (core/ulid.hpp) is the +1 / -1 with carry or borrow,
// and the new value is allocated only when there is one (uuid's allocate first and pfree on
// overflow).
Datum skip_step(Datum existing, bool *overflow, bool up) noexcept
{
    Ulid value = *datum_to_ulid(existing);
    *overflow = !step(value, up);
    return *overflow ? (Datum) 0 : ulid_to_datum(value);
}

Datum skip_decrement(Relation, Datum existing, bool *underflow) noexcept
{
    return skip_step(existing, underflow, false);
}

Datum skip_increment(Relation, Datum existing, bool *overflow) noexcept
{
    return skip_step(existing, overflow, true);
}

} // namespace

// uuid_skipsupport: the same callbacks and bounds (all zero bytes, all 0xFF bytes).
ULID_FUNCTION(ulid_skipsupport)
{
    SkipSupport sksup = reinterpret_cast<SkipSupport>(PG_GETARG_POINTER(0));
    Ulid lowest{};
    Ulid highest;
    memset(highest.bytes, 0xFF, kBytes);
    sksup->decrement = skip_decrement;
    sksup->increment = skip_increment;
    sksup->low_elem = ulid_to_datum(lowest);
    sksup->high_elem = ulid_to_datum(highest);
    PG_RETURN_VOID();
}
#endif
