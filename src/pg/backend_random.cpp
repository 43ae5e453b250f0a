// The per-backend read-ahead pool over pg_strong_random(), and the fork generations that guard it.
#include "backend_random.hpp"

#include <pthread.h>

extern "C" {
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

// Runs in the child right after fork(): only this store, which is async-signal-safe.
void on_fork_child() noexcept
{
    ++fork_generation;
}

} // namespace

unsigned fork_generation = 1;

bool register_fork_handler() noexcept
{
    return pthread_atfork(nullptr, nullptr, on_fork_child) == 0;
}

EntropyPool backend_pool{strong_random};
unsigned backend_pool_owner = 0;

} // namespace ulid::pg
