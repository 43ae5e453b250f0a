// Test-only (make ULID_TEST_THROW=1): ulid_test_fork(n), which forks inside the backend, so that
// t/300_exception_wall.pl can show a child never repeats the parent's entropy or state.
// Empty in the normal build.
#ifdef ULID_TEST_THROW

#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

#include "datum.hpp"
#include "entry.hpp"

extern "C" {
#include "catalog/pg_type_d.h"
#include "utils/array.h"
#include "utils/lsyscache.h"

Datum gen_ulid(PG_FUNCTION_ARGS);
Datum gen_random_ulid(PG_FUNCTION_ARGS);
}

namespace {

constexpr int kMaxPerKind = 1000; // 2 kinds x 1000 x 16 bytes: within one pipe buffer

// n values of gen_ulid(), then n of gen_random_ulid(), into out[0 .. 2n).
void generate(FunctionCallInfo fcinfo, int n, ulid::Ulid *out)
{
    for (int i = 0; i < n; i++)
        out[i] = *ulid::pg::datum_to_ulid(gen_ulid(fcinfo));
    for (int i = 0; i < n; i++)
        out[n + i] = *ulid::pg::datum_to_ulid(gen_random_ulid(fcinfo));
}

} // namespace

// ulid_test_fork(n int) returns ulid[]: first one gen_ulid() and one gen_random_ulid() in the
// backend (so its pool holds unread bytes), then fork(); the child makes n of each and hands them
// over a pipe, leaving with _exit() (PostgreSQL's exit handlers would release the parent's
// resources); then the backend makes n of each. Result: the child's 2n values, then the backend's.
ULID_FUNCTION(ulid_test_fork)
{
    const int n = PG_GETARG_INT32(0);
    if (n < 1 || n > kMaxPerKind)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("n must be between 1 and %d", kMaxPerKind));
    const Oid rettype = get_fn_expr_rettype(fcinfo->flinfo);
    const Oid ulid_type = rettype == InvalidOid ? InvalidOid : get_element_type(rettype);
    if (ulid_type == InvalidOid)
        ereport(ERROR, errmsg("ulid_test_fork must be declared RETURNS ulid[]"));
    (void)gen_ulid(fcinfo);
    (void)gen_random_ulid(fcinfo);

    auto *values = static_cast<ulid::Ulid *>(palloc(sizeof(ulid::Ulid) * 4 * n));
    int fds[2];
    if (pipe(fds) != 0)
        ereport(ERROR, errmsg("pipe() failed: %m"));
    const pid_t pid = fork();
    if (pid < 0)
        ereport(ERROR, errmsg("fork() failed: %m"));
    if (pid == 0) {
        // the child: no ereport may reach the parent's error handling from here
        int status = 0;
        PG_TRY();
        {
            generate(fcinfo, n, values);
        }
        PG_CATCH();
        {
            status = 2;
        }
        PG_END_TRY();
        const std::size_t bytes = sizeof(ulid::Ulid) * 2 * n;
        if (status == 0 && write(fds[1], values, bytes) != static_cast<ssize_t>(bytes))
            status = 3;
        _exit(status);
    }
    close(fds[1]);
    std::size_t want = sizeof(ulid::Ulid) * 2 * n, got = 0;
    auto *buf = reinterpret_cast<char *>(values);
    while (got < want) {
        const ssize_t r = read(fds[0], buf + got, want - got);
        if (r <= 0)
            break;
        got += static_cast<std::size_t>(r);
    }
    close(fds[0]);
    int status = 0;
    (void)waitpid(pid, &status, 0);
    if (got != want || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        ereport(ERROR, errmsg("the forked child failed (status %d, %zu of %zu bytes)", status, got, want));
    generate(fcinfo, n, values + 2 * n);

    auto *elems = static_cast<Datum *>(palloc(sizeof(Datum) * 4 * n));
    for (int i = 0; i < 4 * n; i++)
        elems[i] = PointerGetDatum(&values[i]);
    PG_RETURN_ARRAYTYPE_P(construct_array(elems, 4 * n, ulid_type, sizeof(ulid::Ulid), false, TYPALIGN_CHAR));
}

#endif // ULID_TEST_THROW
