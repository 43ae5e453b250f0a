// Moving ULIDs between PostgreSQL Datums and the core's Ulid value.
#pragma once

#include "compat.h"
#include "core/ulid.hpp"

namespace ulid::pg {

// A ulid Datum points at 16 bytes (fixed length, pass by reference, char alignment).
inline const Ulid *datum_to_ulid(Datum d)
{
    return reinterpret_cast<const Ulid *>(DatumGetPointer(d));
}

inline const Ulid *arg_ulid(FunctionCallInfo fcinfo, int n)
{
    return datum_to_ulid(PG_GETARG_DATUM(n));
}

// Copies a value into a fresh palloc'd Datum.
inline Datum ulid_to_datum(const Ulid &value)
{
    auto *copy = static_cast<Ulid *>(palloc(sizeof(Ulid)));
    *copy = value;
    return PointerGetDatum(copy);
}

} // namespace ulid::pg
