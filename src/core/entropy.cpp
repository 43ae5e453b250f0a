// The read-ahead entropy pool and the secure wipe it relies on.
#include "entropy.hpp"

#include <cstring>

#include "pure.hpp"

namespace ulid {

void secure_wipe(void *p, std::size_t n) noexcept
{
    volatile auto *bytes = static_cast<volatile std::uint8_t *>(p);
    for (std::size_t i = 0; i < n; ++i)
        bytes[i] = 0;
}

bool EntropyPool::fill(std::uint8_t *out, std::size_t n) noexcept
{
    // Requests larger than a block bypass the pool.
    if (n > kBlock)
        return upstream_->fill(out, n);

    while (n > 0) {
        if (pos_ == kBlock) {
            if (!upstream_->fill(block_, kBlock))
                return false; // the pool stays empty; nothing partial was served as random
            pos_ = 0;
        }
        std::size_t take = kBlock - pos_;
        if (take > n)
            take = n;
        std::memcpy(out, block_ + pos_, take);
        secure_wipe(block_ + pos_, take);
        pos_ += take;
        out += take;
        n -= take;
    }
    return true;
}

void EntropyPool::discard() noexcept
{
    secure_wipe(block_, kBlock);
    pos_ = kBlock;
}

bool PrefetchedRandom::draw(RandomSource &source) noexcept
{
    ready_ = source.fill(bytes_, kSize);
    return ready_;
}

bool PrefetchedRandom::fill(std::uint8_t *out, std::size_t n) noexcept
{
    if (!ready_ || n != kSize)
        return false;
    std::memcpy(out, bytes_, kSize);
    wipe();
    return true;
}

void PrefetchedRandom::wipe() noexcept
{
    secure_wipe(bytes_, kSize);
    ready_ = false;
}

} // namespace ulid
