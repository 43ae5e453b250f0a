// BRIN support: the distance function of the minmax-multi operator class (PostgreSQL 14+).
#include "datum.hpp"
#include "entry.hpp"

using namespace ulid;
using namespace ulid::pg;

// Distance between two ULIDs as a double: their difference read as a 128-bit unsigned number,
// scaled down so the result stays finite. Only the relative size of distances matters to BRIN.
// The loop is PostgreSQL's brin_minmax_multi_distance_uuid (brin_minmax_multi.c), so a ulid and a
// uuid of the same bytes are as far apart; it leaves out uuid's Assert that a <= b (a call of uuid_le).
ULID_FUNCTION(ulid_brin_minmax_multi_distance)
{
    const Ulid *a = arg_ulid(fcinfo, 0);
    const Ulid *b = arg_ulid(fcinfo, 1);
    double delta = 0;
    for (int i = static_cast<int>(kBytes) - 1; i >= 0; --i) {
        delta += static_cast<int>(b->bytes[i]) - static_cast<int>(a->bytes[i]);
        delta /= 256;
    }
    Assert(delta >= 0);
    PG_RETURN_FLOAT8(delta);
}

