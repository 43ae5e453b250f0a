// Server-wide state of gen_monotonic_ulid(): shared memory set up at preload time or, on
// PostgreSQL 17+, on first use through the dynamic shared memory registry.
#pragma once

#include "compat.h"

#include "core/entropy.hpp"
#include "core/status.hpp"
#include "core/ulid.hpp"

#include <cstdint>

namespace ulid::pg {

// Called from _PG_init while shared_preload_libraries is being processed: reserves the segment.
void request_shared_state();

// Attaches to this server's shared generator. Raises 55000 with a HINT when it cannot exist
// (PostgreSQL 13-16 without shared_preload_libraries = 'ulid'). Call before next_shared().
void attach_shared_state();

// One step of the server-wide monotonic generator (core/shared_generator.hpp), under its spinlock.
// Draws from random only when the millisecond may be new, and never while holding the lock, so
// nothing under the lock can block or fail; returns the core status.
Status next_shared(std::uint64_t now_ms, RandomSource &random, Ulid *out);

} // namespace ulid::pg
