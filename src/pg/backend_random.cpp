// The per-backend read-ahead pool over pg_strong_random().
#include "backend_random.hpp"

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

} // namespace

EntropyPool backend_pool{strong_random};
int backend_pool_owner = 0;

} // namespace ulid::pg
