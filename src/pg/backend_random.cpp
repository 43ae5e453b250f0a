// The per-backend read-ahead pool over pg_strong_random().
#include "backend_random.hpp"

#include "compat.h"

extern "C" {
#include "miscadmin.h"
#include "port.h"
}

namespace ulid::pg {

namespace {

class StrongRandom final : public RandomSource {
public:
    bool fill(std::uint8_t *out, std::size_t n) noexcept override
    {
        return pg_strong_random(out, n);
    }
};

StrongRandom strong_random;
EntropyPool pool{strong_random};
int pool_owner = 0;

} // namespace

bool claim_process(int *owner_pid)
{
    if (*owner_pid == MyProcPid)
        return false;
    *owner_pid = MyProcPid;
    return true;
}

RandomSource &backend_random()
{
    if (claim_process(&pool_owner))
        pool.discard();
    return pool;
}

} // namespace ulid::pg
