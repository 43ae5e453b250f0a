// Hash support: 32-bit and seeded 64-bit hashes of the 16 bytes. Copies of PostgreSQL's uuid_hash
// and uuid_hash_extended (uuid.c), so a ulid hashes to what a uuid of the same bytes does; only the
// argument is read as a Ulid.
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
