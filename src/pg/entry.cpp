// The catch-all behind ULID_FUNCTION: C++ exceptions become PostgreSQL errors (worded in errors.cpp),
// outside the catch.
#include "entry.hpp"

#include "errors.hpp"

#include <exception>
#include <new>

namespace ulid::pg {

namespace {

enum class Caught { out_of_memory, exception, unknown };

// Only ever written inside a catch block and read right after it, in the same backend.
Caught caught_kind = Caught::unknown;
char caught_what[256];

} // namespace

void record_exception() noexcept
{
    caught_what[0] = '\0';
    try {
        throw; // rethrow the exception being handled, to tell its kind
    } catch (const std::bad_alloc &) {
        caught_kind = Caught::out_of_memory;
    } catch (const std::exception &e) {
        caught_kind = Caught::exception;
        strlcpy(caught_what, e.what(), sizeof caught_what);
    } catch (...) {
        caught_kind = Caught::unknown;
    }
}

void raise_recorded_exception(const char *function_name)
{
    if (caught_kind == Caught::out_of_memory)
        raise_cpp_out_of_memory(function_name);
    raise_cpp_exception(function_name, caught_kind == Caught::exception ? caught_what : nullptr);
}

} // namespace ulid::pg
