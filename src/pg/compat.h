// The PostgreSQL version shims that every file of src/pg sees (all include this header, directly or
// through another): the floor of 13, varatt.h, soft input errors, the unsigned comparator of
// abbreviated keys and whether skip support exists. Gates needed by one file stay at their use:
// module.cpp (PG_MODULE_MAGIC_EXT), sortsupport.cpp (skipsupport.h, trace_sort, the local
// comparator), shared_state.cpp (shmem_request_hook, the DSM registry and the argument of its
// init callback) and time_range.cpp (the type of a syscache callback's cache argument). docs/compatibility.md lists every gate with its majors.
#pragma once

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "utils/sortsupport.h"
}

#if PG_VERSION_NUM < 130000
#error "ulid needs PostgreSQL 13 or later"
#endif

// The varlena macros (VARDATA, VARSIZE_ANY_EXHDR, SET_VARSIZE, ...) moved from postgres.h to
// varatt.h in PostgreSQL 16.
#if PG_VERSION_NUM >= 160000
extern "C" {
#include "varatt.h"
}
#endif

// Soft input errors (PostgreSQL 16+): ULID_ERRSAVE reports into an ErrorSaveContext when the
// caller passed one (pg_input_is_valid() and friends then get false) and returns normally; the caller
// must then return. Without a context, and on earlier versions, it raises an ERROR.
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#define ULID_ERRSAVE(context, ...) errsave((context), __VA_ARGS__)
#else
#define ULID_ERRSAVE(context, ...)                                                                  \
    do {                                                                                            \
        (void) (context);                                                                           \
        ereport(ERROR, __VA_ARGS__);                                                                \
    } while (0)
#endif

// Unsigned comparison of abbreviated keys: PostgreSQL 15+ ships one that unlocks its radix-style
// specialised sort; earlier versions get an equivalent of our own.
#if PG_VERSION_NUM >= 150000
#define ULID_ABBREV_CMP ssup_datum_unsigned_cmp
#else
int ulid_abbrev_unsigned_cmp(Datum x, Datum y, SortSupport ssup) noexcept;
#define ULID_ABBREV_CMP ulid_abbrev_unsigned_cmp
#endif

// B-tree skip support (PostgreSQL 18+).
#if PG_VERSION_NUM >= 180000
#define ULID_HAVE_SKIPSUPPORT 1
#endif
