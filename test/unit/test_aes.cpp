// AES of one block through OpenSSL found in the process (src/core/aes.hpp): FIPS-197's vectors,
// round trips, key lengths, the prepared-key cache, a process without OpenSSL and OpenSSL failing.
#include <openssl/evp.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/aes.hpp"

using ulid::AesBlockCipher;
using ulid::Status;
using ulid::Ulid;

// The signatures aes.hpp declares by hand are OpenSSL's.
static_assert(std::is_same_v<decltype(ulid::OpensslAes::ctx_new), decltype(&EVP_CIPHER_CTX_new)>);
static_assert(std::is_same_v<decltype(ulid::OpensslAes::ctx_free), decltype(&EVP_CIPHER_CTX_free)>);
static_assert(std::is_same_v<decltype(ulid::OpensslAes::set_padding), decltype(&EVP_CIPHER_CTX_set_padding)>);
static_assert(std::is_same_v<decltype(ulid::OpensslAes::aes_128_ecb), decltype(&EVP_aes_128_ecb)>);
static_assert(std::is_same_v<decltype(ulid::OpensslAes::aes_256_ecb), decltype(&EVP_aes_256_ecb)>);
static_assert(std::is_same_v<decltype(ulid::OpensslAes::encrypt_init), decltype(&EVP_EncryptInit_ex)>);
static_assert(std::is_same_v<decltype(ulid::OpensslAes::decrypt_init), decltype(&EVP_DecryptInit_ex)>);
static_assert(std::is_same_v<decltype(ulid::OpensslAes::encrypt_update), decltype(&EVP_EncryptUpdate)>);
static_assert(std::is_same_v<decltype(ulid::OpensslAes::decrypt_update), decltype(&EVP_DecryptUpdate)>);

namespace {

std::vector<std::uint8_t> hex(const std::string &s)
{
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i + 1 < s.size(); i += 2)
        out.push_back(static_cast<std::uint8_t>(std::stoi(s.substr(i, 2), nullptr, 16)));
    return out;
}

Ulid block(const std::string &s)
{
    Ulid u{};
    const auto b = hex(s);
    std::memcpy(u.bytes, b.data(), sizeof u.bytes);
    return u;
}

std::string to_hex(const Ulid &u)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (std::uint8_t b : u.bytes) {
        s += digits[b >> 4];
        s += digits[b & 15];
    }
    return s;
}

// OpenSSL directly, as the reference for the random cases.
Ulid reference(const std::vector<std::uint8_t> &key, const Ulid &in, bool forward)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *cipher = key.size() == 16 ? EVP_aes_128_ecb() : EVP_aes_256_ecb();
    Ulid out{};
    int n = 0;
    if (forward) {
        EVP_EncryptInit_ex(ctx, cipher, nullptr, key.data(), nullptr);
        EVP_CIPHER_CTX_set_padding(ctx, 0);
        EVP_EncryptUpdate(ctx, out.bytes, &n, in.bytes, 16);
    } else {
        EVP_DecryptInit_ex(ctx, cipher, nullptr, key.data(), nullptr);
        EVP_CIPHER_CTX_set_padding(ctx, 0);
        EVP_DecryptUpdate(ctx, out.bytes, &n, in.bytes, 16);
    }
    EVP_CIPHER_CTX_free(ctx);
    return out;
}

const char kPlain[] = "00112233445566778899aabbccddeeff";

// OpenSSL as the process has it, with one function replaced
ulid::OpensslAes without_decrypt_update()
{
    ulid::OpensslAes api = ulid::openssl_in_process();
    api.decrypt_update = nullptr;
    return api;
}
int ctx_new_calls = 0;
EVP_CIPHER_CTX *failing_ctx_new() { return nullptr; }
EVP_CIPHER_CTX *counting_ctx_new()
{
    ++ctx_new_calls;
    return EVP_CIPHER_CTX_new();
}
ulid::OpensslAes with_ctx_new(EVP_CIPHER_CTX *(*ctx_new)())
{
    ulid::OpensslAes api = ulid::openssl_in_process();
    api.ctx_new = ctx_new;
    return api;
}

} // namespace

TEST(Aes, FindsOpensslInTheProcess)
{
    EXPECT_EQ(ulid::openssl_in_process().encrypt_update, &EVP_EncryptUpdate);
    EXPECT_EQ(ulid::openssl_in_process().ctx_new, &EVP_CIPHER_CTX_new);
    AesBlockCipher aes;
    EXPECT_TRUE(aes.available());
}

// FIPS-197 Appendix C.1 (AES-128) and C.3 (AES-256).
TEST(Aes, Fips197Vectors)
{
    AesBlockCipher aes;
    const struct {
        const char *key, *cipher;
    } cases[] = {
        {"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
        {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"},
    };
    for (const auto &c : cases) {
        const auto key = hex(c.key);
        Ulid out{};
        ASSERT_EQ(aes.encrypt(key.data(), key.size(), block(kPlain), &out), Status::ok);
        EXPECT_EQ(to_hex(out), c.cipher) << c.key;
        Ulid back{};
        ASSERT_EQ(aes.decrypt(key.data(), key.size(), block(c.cipher), &back), Status::ok);
        EXPECT_EQ(to_hex(back), kPlain) << c.key;
    }
}

TEST(Aes, RandomCasesMatchOpensslAndRoundTrip)
{
    AesBlockCipher aes;
    std::mt19937_64 rng(20261203);
    for (int i = 0; i < 2000; ++i) {
        std::vector<std::uint8_t> key(i % 2 == 0 ? 16 : 32);
        for (auto &b : key)
            b = static_cast<std::uint8_t>(rng());
        Ulid in{};
        for (auto &b : in.bytes)
            b = static_cast<std::uint8_t>(rng());
        Ulid enc{}, dec{};
        ASSERT_EQ(aes.encrypt(key.data(), key.size(), in, &enc), Status::ok);
        EXPECT_EQ(enc, reference(key, in, true));
        EXPECT_NE(enc, in);
        ASSERT_EQ(aes.decrypt(key.data(), key.size(), enc, &dec), Status::ok);
        EXPECT_EQ(dec, in);
        EXPECT_EQ(reference(key, in, false), [&] {
            Ulid d{};
            EXPECT_EQ(aes.decrypt(key.data(), key.size(), in, &d), Status::ok);
            return d;
        }());
    }
}

TEST(Aes, KeyLengthsOtherThan16And32AreRefused)
{
    AesBlockCipher aes;
    const std::uint8_t key[40] = {1, 2, 3};
    for (std::size_t n : {0, 1, 15, 17, 24, 31, 33, 40}) {
        Ulid out = block("ffffffffffffffffffffffffffffffff");
        EXPECT_EQ(aes.encrypt(key, n, block(kPlain), &out), Status::bad_key_length) << n;
        EXPECT_EQ(aes.decrypt(key, n, block(kPlain), &out), Status::bad_key_length) << n;
        EXPECT_EQ(to_hex(out), "ffffffffffffffffffffffffffffffff") << "untouched on failure";
    }
}

// More keys than the cache holds, in turns: every answer is still the key's own (evicted keys are
// prepared again), and keys that differ in one byte or only in length never share an entry.
TEST(Aes, CacheServesEachKeyItsOwnResult)
{
    ctx_new_calls = 0;
    AesBlockCipher aes(with_ctx_new(counting_ctx_new));
    std::vector<std::vector<std::uint8_t>> keys;
    for (int k = 0; k < 7; ++k) {
        std::vector<std::uint8_t> key(32, 0x5a);
        key[31] = static_cast<std::uint8_t>(k); // differ in the last byte only
        keys.push_back(key);
    }
    keys.emplace_back(keys[0].begin(), keys[0].begin() + 16); // a prefix of key 0
    const Ulid in = block(kPlain);
    for (int round = 0; round < 3; ++round)
        for (const auto &key : keys) {
            Ulid out{};
            ASSERT_EQ(aes.encrypt(key.data(), key.size(), in, &out), Status::ok);
            EXPECT_EQ(out, reference(key, in, true));
        }
    // 8 keys through 4 entries in turn: every use is a miss (two contexts each).
    EXPECT_EQ(ctx_new_calls, 3 * 8 * 2);

    ctx_new_calls = 0;
    for (int i = 0; i < 100; ++i) {
        Ulid out{};
        ASSERT_EQ(aes.encrypt(keys[1].data(), 32, in, &out), Status::ok);
        ASSERT_EQ(aes.decrypt(keys[2].data(), 32, in, &out), Status::ok);
    }
    EXPECT_EQ(ctx_new_calls, 2 * 2) << "two keys in use: each prepared once";
    aes.clear();
    Ulid out{};
    ASSERT_EQ(aes.encrypt(keys[1].data(), 32, in, &out), Status::ok);
    EXPECT_EQ(ctx_new_calls, 3 * 2) << "clear() frees every prepared key";
}

TEST(Aes, ProcessWithoutOpensslIsUnavailable)
{
    const std::uint8_t key[16] = {};
    for (const ulid::OpensslAes &api : {ulid::OpensslAes{}, without_decrypt_update()}) {
        AesBlockCipher aes(api);
        EXPECT_FALSE(aes.available());
        Ulid out = block(kPlain);
        EXPECT_EQ(aes.encrypt(key, 16, block(kPlain), &out), Status::cipher_unavailable);
        EXPECT_EQ(aes.decrypt(key, 16, block(kPlain), &out), Status::cipher_unavailable);
        EXPECT_EQ(aes.encrypt(key, 3, block(kPlain), &out), Status::bad_key_length) << "the key is checked first";
        EXPECT_EQ(to_hex(out), kPlain);
    }
}

TEST(Aes, OpensslFailingIsCipherFailure)
{
    AesBlockCipher aes(with_ctx_new(failing_ctx_new));
    const std::uint8_t key[16] = {};
    Ulid out = block(kPlain);
    EXPECT_EQ(aes.encrypt(key, 16, block(kPlain), &out), Status::cipher_failure);
    EXPECT_EQ(to_hex(out), kPlain);
}

TEST(Aes, ParseHexKey)
{
    std::uint8_t key[32];
    std::size_t n = 99;
    ASSERT_TRUE(ulid::parse_hex_key("000102030405060708090a0b0c0d0E0F", key, &n));
    EXPECT_EQ(n, 16u);
    EXPECT_EQ(key[0], 0x00);
    EXPECT_EQ(key[15], 0x0f);
    ASSERT_TRUE(ulid::parse_hex_key("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1F", key, &n));
    EXPECT_EQ(n, 32u);
    EXPECT_EQ(key[31], 0x1f);
    for (const char *bad : {"", "00", "000102030405060708090a0b0c0d0e0", "000102030405060708090a0b0c0d0e0f0",
                            "0x0102030405060708090a0b0c0d0e0f", "000102030405060708090a0b0c0d0e0g",
                            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f00",
                            " 00102030405060708090a0b0c0d0e0f"}) {
        n = 99;
        EXPECT_FALSE(ulid::parse_hex_key(bad, key, &n)) << bad;
        EXPECT_EQ(n, 0u) << bad;
    }
}
