// Generators: gen_ulid() (monotonic per backend), gen_monotonic_ulid() (monotonic server-wide),
// gen_ulid(timestamptz) and gen_random_ulid().
#include "backend_random.hpp"
#include "datum.hpp"
#include "entry.hpp"
#include "errors.hpp"
#include "shared_state.hpp"
#include "time.hpp"

#include "core/generator.hpp"
#include "core/timestamp.hpp"

using namespace ulid;
using namespace ulid::pg;

namespace {

MonotonicGenerator monotonic;
unsigned monotonic_owner = 0;

} // namespace

ULID_FUNCTION(gen_ulid)
{
    if (claim_process(&monotonic_owner))
        monotonic.reset();
    Ulid value;
    raise_status(monotonic.next(system_unix_ms(), backend_random(), &value));
    return ulid_to_datum(value);
}

// One order for the whole server. A millisecond that the shared state has already reached draws no
// random bytes; for a new one they are drawn before the spinlock is taken, so that only the
// generator's few instructions (which cannot fail) run under it. Errors are raised after it is
// released.
ULID_FUNCTION(gen_monotonic_ulid)
{
    attach_shared_state();
    Ulid value;
    raise_status(next_shared(system_unix_ms(), backend_random(), &value));
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
