// The C++/PostgreSQL wall: every SQL-callable function is defined through ULID_FUNCTION.
//
// ULID_FUNCTION(name) declares the extern "C" V1 entry point `name`, which runs the body inside a
// catch-all. A C++ exception never reaches PostgreSQL: it is caught, the catch block ends, and only
// then is the PostgreSQL ERROR raised. Bodies may call ereport() themselves (its longjmp passes only
// through these frames), so they must hold only trivially destructible locals.
#pragma once

#include "compat.h"

namespace ulid::pg {

using Body = Datum (*)(FunctionCallInfo);

// Runs body; converts any escaping C++ exception into an ERROR after the catch has finished.
Datum run_guarded(FunctionCallInfo fcinfo, Body body, const char *function_name);

} // namespace ulid::pg

#define ULID_FUNCTION(name)                                                                         \
    static Datum name##_body(FunctionCallInfo fcinfo);                                              \
    extern "C" {                                                                                    \
    PG_FUNCTION_INFO_V1(name);                                                                      \
    Datum name(PG_FUNCTION_ARGS)                                                                    \
    {                                                                                               \
        return ulid::pg::run_guarded(fcinfo, name##_body, #name);                                   \
    }                                                                                               \
    }                                                                                               \
    static Datum name##_body(FunctionCallInfo fcinfo)
