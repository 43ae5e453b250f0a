// Test-only (make ULID_TEST_THROW=1): ulid_test_throw(text), whose body throws, so that
// t/300_exception_wall.pl can prove ULID_FUNCTION's catch-all. Empty in the normal build.
#ifdef ULID_TEST_THROW

#include <cstddef>
#include <cstring>
#include <new>
#include <stdexcept>

#include "entry.hpp"

extern "C" {
#include "utils/builtins.h"
}

namespace {

// An allocation no machine can satisfy (2^62 bytes); volatile so the compiler cannot see it.
volatile std::size_t impossible_size = std::size_t{1} << 62;

} // namespace

// kind: 'bad_alloc' throws std::bad_alloc; 'operator_new' makes operator new fail for real;
// 'runtime_error' throws std::runtime_error; 'int' throws an int (not a std::exception);
// 'none' returns 'returned'. Anything else is an ordinary PostgreSQL error (22023).
ULID_FUNCTION(ulid_test_throw)
{
    const char *kind = text_to_cstring(PG_GETARG_TEXT_PP(0));
    if (std::strcmp(kind, "bad_alloc") == 0)
        throw std::bad_alloc();
    if (std::strcmp(kind, "operator_new") == 0) {
        void *p = ::operator new(impossible_size);
        ::operator delete(p); // not reached
    }
    if (std::strcmp(kind, "runtime_error") == 0)
        throw std::runtime_error("thrown on purpose by ulid_test_throw");
    if (std::strcmp(kind, "int") == 0)
        throw 42;
    if (std::strcmp(kind, "none") == 0)
        PG_RETURN_TEXT_P(cstring_to_text("returned"));
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("unknown kind \"%s\" for ulid_test_throw", kind));
    PG_RETURN_NULL();
}

#endif // ULID_TEST_THROW
