// AES (FIPS-197) of one 16-byte block, the keyed permutation behind ulid_encrypt()/ulid_decrypt().
//
// The cipher is OpenSSL's, never written here: its EVP functions are weak references that the
// dynamic linker binds to the libcrypto already in the process (a PostgreSQL server built with
// OpenSSL has it loaded), so the library links no libcrypto and loads on systems of either OpenSSL
// ABI (1.1 and 3 export these functions with the same signatures). A process without them gets
// Status::cipher_unavailable.
#pragma once

#include <cstddef>
#include <cstdint>

#include "status.hpp"
#include "ulid.hpp"

// OpenSSL's opaque types, by the names its headers give them (no OpenSSL header is needed to build).
struct evp_cipher_ctx_st;
struct evp_cipher_st;
struct engine_st;

namespace ulid {

// The EVP functions used, with OpenSSL's signatures (the unit tests check them against its headers).
struct OpensslAes {
    evp_cipher_ctx_st *(*ctx_new)();                   // EVP_CIPHER_CTX_new
    void (*ctx_free)(evp_cipher_ctx_st *);             // EVP_CIPHER_CTX_free
    int (*set_padding)(evp_cipher_ctx_st *, int);      // EVP_CIPHER_CTX_set_padding
    const evp_cipher_st *(*aes_128_ecb)();             // EVP_aes_128_ecb
    const evp_cipher_st *(*aes_256_ecb)();             // EVP_aes_256_ecb
    int (*encrypt_init)(evp_cipher_ctx_st *, const evp_cipher_st *, engine_st *, const unsigned char *,
                        const unsigned char *);        // EVP_EncryptInit_ex
    int (*decrypt_init)(evp_cipher_ctx_st *, const evp_cipher_st *, engine_st *, const unsigned char *,
                        const unsigned char *);        // EVP_DecryptInit_ex
    int (*encrypt_update)(evp_cipher_ctx_st *, unsigned char *, int *, const unsigned char *, int); // EVP_EncryptUpdate
    int (*decrypt_update)(evp_cipher_ctx_st *, unsigned char *, int *, const unsigned char *, int); // EVP_DecryptUpdate
};

// Key lengths accepted: AES-128 and AES-256 (AES-192 is left out on purpose: one key length per
// security level people ask for, and pgcrypto's silent padding of other lengths is refused alike).
inline constexpr std::size_t kAes128KeyBytes = 16;
inline constexpr std::size_t kAes256KeyBytes = 32;

inline constexpr bool valid_aes_key_length(std::size_t n) noexcept
{
    return n == kAes128KeyBytes || n == kAes256KeyBytes;
}

// OpenSSL's functions as this process has them: the weak references' addresses, every one nullptr
// where the process has no OpenSSL. (Tests pass their own, with one missing or failing.)
OpensslAes openssl_in_process() noexcept;

// Encrypts or decrypts single blocks with a small per-process cache of prepared keys, so that a
// query that uses one key (or the two of a key rotation) sets each key up once. An entry is found
// by the whole key, compared byte for byte: a caller reaches a prepared key only by presenting it,
// and a new key is a new entry (the least recently used one is freed). Not thread-safe (a backend
// is one thread).
class AesBlockCipher final {
public:
    static constexpr std::size_t kCacheEntries = 4;

    explicit AesBlockCipher(const OpensslAes &api = openssl_in_process()) noexcept : api_(api) {}
    ~AesBlockCipher();
    AesBlockCipher(const AesBlockCipher &) = delete;
    AesBlockCipher &operator=(const AesBlockCipher &) = delete;

    // *out = AES_key(in) or its inverse. bad_key_length unless the key is 16 or 32 bytes;
    // cipher_unavailable when the process has no OpenSSL; cipher_failure when OpenSSL fails (out of
    // memory). *out is untouched on failure.
    Status encrypt(const std::uint8_t *key, std::size_t key_length, const Ulid &in, Ulid *out) noexcept;
    Status decrypt(const std::uint8_t *key, std::size_t key_length, const Ulid &in, Ulid *out) noexcept;

    // Whether every one of OpenSSL's functions is there.
    bool available() const noexcept;

    // Frees every prepared key (their expanded key schedules are OpenSSL's to wipe).
    void clear() noexcept;

private:
    struct Entry {
        std::uint8_t key[kAes256KeyBytes];
        std::size_t key_length;
        evp_cipher_ctx_st *encrypt_ctx;
        evp_cipher_ctx_st *decrypt_ctx;
        std::uint64_t used;
    };
    Status run(bool forward, const std::uint8_t *key, std::size_t key_length, const Ulid &in, Ulid *out) noexcept;
    Entry *find_or_prepare(const std::uint8_t *key, std::size_t key_length, Status *status) noexcept;
    void free_entry(Entry &e) noexcept;

    OpensslAes api_;
    Entry entries_[kCacheEntries] = {};
    std::uint64_t clock_ = 0;
};

// Reads a key written as hexadecimal digits (either case, no prefix, nothing else): 32 digits for
// AES-128, 64 for AES-256. On success fills out[0..*length) and returns true; otherwise returns
// false and leaves *length 0.
bool parse_hex_key(const char *text, std::uint8_t out[kAes256KeyBytes], std::size_t *length) noexcept;

} // namespace ulid
