// This backend's entropy: pg_strong_random() read ahead in a pool that never survives a fork.
#pragma once

#include "core/entropy.hpp"

namespace ulid::pg {

// The pool for the calling process. Its first use in a process (told by pid) discards whatever a
// parent left in it, so a library preloaded into the postmaster hands no bytes to two backends.
RandomSource &backend_random();

// Per-process state guard: true when *owner_pid is not this process, which it then becomes. The
// caller resets the state the guard protects (e.g. the monotonic generator) when it returns true.
bool claim_process(int *owner_pid);

} // namespace ulid::pg
