// The catch-all behind ULID_FUNCTION: C++ exceptions become PostgreSQL errors, outside the catch.
#include "entry.hpp"

#include <exception>
#include <new>

namespace ulid::pg {

namespace {
enum class Caught { nothing, out_of_memory, exception, unknown };
}

Datum run_guarded(FunctionCallInfo fcinfo, Body body, const char *function_name)
{
    Caught caught = Caught::nothing;
    char what[256] = "";

    try {
        return body(fcinfo);
    } catch (const std::bad_alloc &) {
        caught = Caught::out_of_memory;
    } catch (const std::exception &e) {
        caught = Caught::exception;
        strlcpy(what, e.what(), sizeof what);
    } catch (...) {
        caught = Caught::unknown;
    }

    // The exception object is gone; raising here unwinds no C++ frame that owns anything.
    if (caught == Caught::out_of_memory)
        ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"),
                errdetail("C++ allocation failed in %s.", function_name));
    ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
            errmsg("unexpected C++ exception in %s", function_name),
            caught == Caught::exception ? errdetail("%s", what) : 0);
    pg_unreachable();
}

} // namespace ulid::pg
