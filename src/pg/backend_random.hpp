// This backend's entropy: pg_strong_random() read ahead in a pool that never survives a fork.
#pragma once

#include "compat.h"

extern "C" {
#include "miscadmin.h"
}

#include "core/entropy.hpp"

namespace ulid::pg {

// Per-process state guard: true when *owner_pid is not this process, which it then becomes. The
// caller resets the state the guard protects (e.g. the monotonic generator) when it returns true.
inline bool claim_process(int *owner_pid)
{
    if (*owner_pid == MyProcPid)
        return false;
    *owner_pid = MyProcPid;
    return true;
}

extern EntropyPool backend_pool;
extern int backend_pool_owner;

// The pool for the calling process. Its first use in a process (told by pid) discards whatever a
// parent left in it, so a library preloaded into the postmaster hands no bytes to two backends.
inline RandomSource &backend_random()
{
    if (claim_process(&backend_pool_owner))
        backend_pool.discard();
    return backend_pool;
}

} // namespace ulid::pg
