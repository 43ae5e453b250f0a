// Random sources: the interface the generators draw from, and a read-ahead pool over a slow one.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ulid {

// Fills buffers with cryptographically strong random bytes; returns false on failure.
class RandomSource {
public:
    virtual bool fill(std::uint8_t *out, std::size_t n) noexcept = 0;

protected:
    ~RandomSource() = default;
};

// Overwrites memory in a way the compiler may not drop as a dead store.
void secure_wipe(void *p, std::size_t n) noexcept;

// Reads its upstream source ahead in blocks, serves bytes from the block, and wipes every byte it
// hands out. Nothing is read until the first request, so a pool that exists in a parent process is
// empty when it forks unless the parent drew from it; discard() empties it (call it in a child).
class EntropyPool final : public RandomSource {
public:
    static constexpr std::size_t kBlock = 4096;

    explicit constexpr EntropyPool(RandomSource &upstream) noexcept : upstream_(&upstream) {}

    bool fill(std::uint8_t *out, std::size_t n) noexcept override;

    // Wipes and forgets any read-ahead bytes.
    void discard() noexcept;

    // Bytes left to serve before the next upstream read (for tests).
    std::size_t available() const noexcept { return kBlock - pos_; }

private:
    RandomSource *upstream_;
    std::size_t pos_ = kBlock; // kBlock means empty
    std::uint8_t block_[kBlock] = {};
};

// Serves one request of exactly kSize bytes drawn beforehand, then fails. Lets a caller draw
// randomness (which may be slow or fail) before taking a lock, and run the generator under the lock
// with a source that cannot block. Trivially destructible: the owner wipes it with wipe().
class PrefetchedRandom final : public RandomSource {
public:
    static constexpr std::size_t kSize = 10; // a ULID's entropy

    // Draws kSize bytes from source; false when the source fails.
    bool draw(RandomSource &source) noexcept;

    bool fill(std::uint8_t *out, std::size_t n) noexcept override;

    void wipe() noexcept;

private:
    std::uint8_t bytes_[kSize] = {};
    bool ready_ = false;
};

} // namespace ulid
