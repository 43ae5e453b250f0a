// Comparison: the six operators, the btree comparator, and min/max aggregate support.
#include "datum.hpp"
#include "entry.hpp"

using namespace ulid;
using namespace ulid::pg;

namespace {

int cmp_args(FunctionCallInfo fcinfo)
{
    return compare(*arg_ulid(fcinfo, 0), *arg_ulid(fcinfo, 1));
}

} // namespace

ULID_FUNCTION(ulid_eq) { PG_RETURN_BOOL(cmp_args(fcinfo) == 0); }
ULID_FUNCTION(ulid_ne) { PG_RETURN_BOOL(cmp_args(fcinfo) != 0); }
ULID_FUNCTION(ulid_lt) { PG_RETURN_BOOL(cmp_args(fcinfo) < 0); }
ULID_FUNCTION(ulid_le) { PG_RETURN_BOOL(cmp_args(fcinfo) <= 0); }
ULID_FUNCTION(ulid_gt) { PG_RETURN_BOOL(cmp_args(fcinfo) > 0); }
ULID_FUNCTION(ulid_ge) { PG_RETURN_BOOL(cmp_args(fcinfo) >= 0); }

// B-tree comparison: -1, 0 or 1.
ULID_FUNCTION(ulid_cmp) { PG_RETURN_INT32(cmp_args(fcinfo)); }

// Transition functions of min(ulid) and max(ulid): return the chosen input itself.
ULID_FUNCTION(ulid_smaller)
{
    return cmp_args(fcinfo) <= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

ULID_FUNCTION(ulid_larger)
{
    return cmp_args(fcinfo) >= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}
