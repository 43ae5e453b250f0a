// Generators: gen_ulid() (monotonic per backend), gen_ulid(timestamptz) and gen_random_ulid().
#include "backend_random.hpp"
#include "datum.hpp"
#include "entry.hpp"
#include "errors.hpp"
#include "time.hpp"

#include "core/generator.hpp"
#include "core/timestamp.hpp"

using namespace ulid;
using namespace ulid::pg;

namespace {

MonotonicGenerator monotonic;
int monotonic_owner = 0;

} // namespace

ULID_FUNCTION(gen_ulid)
{
    if (claim_process(&monotonic_owner))
        monotonic.reset();
    Ulid value;
    raise_status(monotonic.next(system_unix_ms(), backend_random(), &value));
    return ulid_to_datum(value);
}

ULID_FUNCTION(gen_ulid_at)
{
    const std::uint64_t ms = unix_ms_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0));
    Ulid value;
    raise_status(random_at(ms, backend_random(), &value));
    return ulid_to_datum(value);
}

ULID_FUNCTION(gen_random_ulid)
{
    Ulid value;
    raise_status(random_at(system_unix_ms(), backend_random(), &value));
    return ulid_to_datum(value);
}
