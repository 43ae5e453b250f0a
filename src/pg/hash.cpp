// Hash support: 32-bit and seeded 64-bit hashes of the 16 bytes (the same values uuid hashes to).
#include "datum.hpp"
#include "entry.hpp"

extern "C" {
#include "common/hashfn.h"
}

using namespace ulid;
using namespace ulid::pg;

ULID_FUNCTION(ulid_hash)
{
    return hash_any(arg_ulid(fcinfo, 0)->bytes, kBytes);
}

ULID_FUNCTION(ulid_hash_extended)
{
    return hash_any_extended(arg_ulid(fcinfo, 0)->bytes, kBytes, PG_GETARG_INT64(1));
}
