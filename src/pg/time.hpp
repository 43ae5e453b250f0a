// timestamptz <-> ULID millisecond conversion shared by the time functions and the generators.
#pragma once

#include "compat.h"

extern "C" {
#include "utils/timestamp.h"
}

#include <cstdint>

namespace ulid::pg {

// The Unix millisecond holding ts; raises 22008 when ts is infinite or outside the ULID range.
std::uint64_t unix_ms_from_timestamptz(TimestampTz ts);

} // namespace ulid::pg
