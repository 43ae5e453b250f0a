// The module's identity (PG_MODULE_MAGIC, with name and version on 18+) and its _PG_init.
#include "compat.h"

extern "C" {
#include "miscadmin.h"
}

#include "backend_random.hpp"
#include "errors.hpp"
#include "public_id.hpp"
#include "shared_state.hpp"

extern "C" {
#if PG_VERSION_NUM >= 180000
PG_MODULE_MAGIC_EXT(.name = "ulid", .version = ULID_VERSION);
#else
PG_MODULE_MAGIC;
#endif

void _PG_init(void);

// Registers the fork handler (src/pg/backend_random.hpp), defines ulid.public_id_key
// (src/pg/public_id.cpp) and, when preloaded, requests shared memory.
// Draws no randomness and fills no buffer: in the postmaster anything drawn here would be
// inherited by every backend. A library whose handler cannot be registered refuses to load.
void _PG_init(void)
{
    if (!ulid::pg::register_fork_handler())
        ulid::pg::raise_fork_handler_failed();
    ulid::pg::define_public_id_key(process_shared_preload_libraries_in_progress);
    if (process_shared_preload_libraries_in_progress)
        ulid::pg::request_shared_state();
}
}
