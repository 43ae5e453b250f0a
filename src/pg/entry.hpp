// The C++/PostgreSQL wall: every SQL-callable function is defined through ULID_FUNCTION.
//
// ULID_FUNCTION(name) declares the extern "C" V1 entry point `name`, which runs the body inside a
// catch-all. A C++ exception never reaches PostgreSQL: it is caught and recorded, the catch block
// ends, and only then is the PostgreSQL ERROR raised. Bodies may call ereport() themselves (its
// longjmp passes only through these frames), so they must hold only trivially destructible locals.
#pragma once

#include "compat.h"

namespace ulid::pg {

// Inside a catch block: records what was caught (kind and message) in static storage.
void record_exception() noexcept;

// After the catch block: raises the recorded exception as a PostgreSQL ERROR. Never returns.
[[noreturn]] void raise_recorded_exception(const char *function_name);

} // namespace ulid::pg

#define ULID_FUNCTION(name)                                                                         \
    static Datum name##_body(FunctionCallInfo fcinfo);                                              \
    extern "C" {                                                                                    \
    PG_FUNCTION_INFO_V1(name);                                                                      \
    Datum name(PG_FUNCTION_ARGS)                                                                    \
    {                                                                                               \
        try {                                                                                       \
            return name##_body(fcinfo);                                                             \
        } catch (...) {                                                                             \
            ulid::pg::record_exception();                                                           \
        }                                                                                           \
        ulid::pg::raise_recorded_exception(#name);                                                  \
    }                                                                                               \
    }                                                                                               \
    static Datum name##_body(FunctionCallInfo fcinfo)
