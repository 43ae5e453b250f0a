// This backend's entropy: pg_strong_random() read ahead in a pool that never survives a fork.
#pragma once

#include "compat.h"

#include "core/entropy.hpp"

namespace ulid::pg {

// Fork generations. The process that loads the library is generation 1; a pthread_atfork child
// handler (registered by _PG_init) adds one in every child of a fork: each backend forked from a
// postmaster that preloaded the library, and any process forked inside a backend (an untrusted PL,
// another C extension), whose MyProcPid would still be the parent's. Per-process state stamped with
// another generation was inherited from a parent and must not be used.
extern unsigned fork_generation;

// Registers the child handler; false when the C library could not (no memory).
bool register_fork_handler() noexcept;

// Per-process state guard: true when *owner is not this process's generation, which it then
// becomes. The caller resets the state the guard protects (e.g. the monotonic generator) when it
// returns true. One load and compare per call: no system call.
inline bool claim_process(unsigned *owner) noexcept
{
    if (*owner == fork_generation)
        return false;
    *owner = fork_generation;
    return true;
}

extern EntropyPool backend_pool;
extern unsigned backend_pool_owner;

// The pool for the calling process. Its first use in a process (told by the fork generation)
// discards whatever a parent left in it, so no two processes hand out the same bytes.
inline RandomSource &backend_random() noexcept
{
    if (claim_process(&backend_pool_owner))
        backend_pool.discard();
    return backend_pool;
}

} // namespace ulid::pg
