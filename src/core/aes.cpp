// AES of one block through OpenSSL's EVP functions found in the process; the prepared-key cache.
#include "aes.hpp"

#include <cstring>

#include "entropy.hpp"
#include "pure.hpp"

namespace ulid {

// OpenSSL's functions as weak references: the dynamic linker binds them to the libcrypto the
// server process has loaded, and leaves them null where there is none. No dlsym (whose symbol
// version would raise the glibc the library needs) and no link to one libcrypto soname.
extern "C" {
evp_cipher_ctx_st *EVP_CIPHER_CTX_new() __attribute__((weak));
void EVP_CIPHER_CTX_free(evp_cipher_ctx_st *) __attribute__((weak));
int EVP_CIPHER_CTX_set_padding(evp_cipher_ctx_st *, int) __attribute__((weak));
const evp_cipher_st *EVP_aes_128_ecb() __attribute__((weak));
const evp_cipher_st *EVP_aes_256_ecb() __attribute__((weak));
int EVP_EncryptInit_ex(evp_cipher_ctx_st *, const evp_cipher_st *, engine_st *, const unsigned char *,
                       const unsigned char *) __attribute__((weak));
int EVP_DecryptInit_ex(evp_cipher_ctx_st *, const evp_cipher_st *, engine_st *, const unsigned char *,
                       const unsigned char *) __attribute__((weak));
int EVP_EncryptUpdate(evp_cipher_ctx_st *, unsigned char *, int *, const unsigned char *, int) __attribute__((weak));
int EVP_DecryptUpdate(evp_cipher_ctx_st *, unsigned char *, int *, const unsigned char *, int) __attribute__((weak));
}

OpensslAes openssl_in_process() noexcept
{
    return OpensslAes{&EVP_CIPHER_CTX_new, &EVP_CIPHER_CTX_free, &EVP_CIPHER_CTX_set_padding, &EVP_aes_128_ecb,
                      &EVP_aes_256_ecb,    &EVP_EncryptInit_ex,  &EVP_DecryptInit_ex,        &EVP_EncryptUpdate,
                      &EVP_DecryptUpdate};
}

namespace {

int hex_value(char c) noexcept
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Same length and bytes; reads every byte whatever it finds (no early exit on the first difference).
bool same_key(const std::uint8_t *a, std::size_t a_length, const std::uint8_t *b, std::size_t b_length) noexcept
{
    if (a_length != b_length)
        return false;
    unsigned diff = 0;
    for (std::size_t i = 0; i < a_length; ++i)
        diff |= static_cast<unsigned>(a[i] ^ b[i]);
    return diff == 0;
}

} // namespace

AesBlockCipher::~AesBlockCipher() { clear(); }

bool AesBlockCipher::available() const noexcept
{
    return api_.ctx_new != nullptr && api_.ctx_free != nullptr && api_.set_padding != nullptr &&
           api_.aes_128_ecb != nullptr && api_.aes_256_ecb != nullptr && api_.encrypt_init != nullptr &&
           api_.decrypt_init != nullptr && api_.encrypt_update != nullptr && api_.decrypt_update != nullptr;
}

void AesBlockCipher::free_entry(Entry &e) noexcept
{
    if (e.encrypt_ctx != nullptr)
        api_.ctx_free(e.encrypt_ctx);
    if (e.decrypt_ctx != nullptr)
        api_.ctx_free(e.decrypt_ctx);
    secure_wipe(e.key, sizeof e.key);
    e = Entry{};
}

void AesBlockCipher::clear() noexcept
{
    for (Entry &e : entries_)
        if (e.key_length != 0)
            free_entry(e);
}

AesBlockCipher::Entry *AesBlockCipher::find_or_prepare(const std::uint8_t *key, std::size_t key_length,
                                                       Status *status) noexcept
{
    Entry *victim = &entries_[0];
    for (Entry &e : entries_) {
        if (e.key_length != 0 && same_key(e.key, e.key_length, key, key_length)) {
            e.used = ++clock_;
            return &e;
        }
        if (e.key_length == 0 || (victim->key_length != 0 && e.used < victim->used))
            victim = &e;
    }
    if (victim->key_length != 0)
        free_entry(*victim);

    const evp_cipher_st *cipher = key_length == kAes128KeyBytes ? api_.aes_128_ecb() : api_.aes_256_ecb();
    Entry fresh{};
    fresh.encrypt_ctx = api_.ctx_new();
    fresh.decrypt_ctx = api_.ctx_new();
    // One block at a time, no padding: ECB then keeps no state between calls, so a prepared
    // context serves every later block.
    const bool ok = fresh.encrypt_ctx != nullptr && fresh.decrypt_ctx != nullptr && cipher != nullptr &&
                    api_.encrypt_init(fresh.encrypt_ctx, cipher, nullptr, key, nullptr) == 1 &&
                    api_.set_padding(fresh.encrypt_ctx, 0) == 1 &&
                    api_.decrypt_init(fresh.decrypt_ctx, cipher, nullptr, key, nullptr) == 1 &&
                    api_.set_padding(fresh.decrypt_ctx, 0) == 1;
    if (!ok) {
        free_entry(fresh);
        *status = Status::cipher_failure;
        return nullptr;
    }
    std::memcpy(fresh.key, key, key_length);
    fresh.key_length = key_length;
    fresh.used = ++clock_;
    *victim = fresh;
    secure_wipe(fresh.key, sizeof fresh.key);
    return victim;
}

Status AesBlockCipher::run(bool forward, const std::uint8_t *key, std::size_t key_length, const Ulid &in,
                           Ulid *out) noexcept
{
    if (!valid_aes_key_length(key_length))
        return Status::bad_key_length;
    if (!available())
        return Status::cipher_unavailable;
    Status status = Status::ok;
    Entry *e = find_or_prepare(key, key_length, &status);
    if (e == nullptr)
        return status;
    // One whole block, padding off: OpenSSL buffers nothing and writes exactly 16 bytes (it asks
    // for room for a block more only when it may hold back a partial or padded one).
    Ulid result;
    int written = 0;
    const int rc = forward ? api_.encrypt_update(e->encrypt_ctx, result.bytes, &written, in.bytes, kBytes)
                           : api_.decrypt_update(e->decrypt_ctx, result.bytes, &written, in.bytes, kBytes);
    if (rc != 1 || written != static_cast<int>(kBytes)) {
        free_entry(*e); // its context's state is unknown now
        return Status::cipher_failure;
    }
    *out = result;
    return Status::ok;
}

Status AesBlockCipher::encrypt(const std::uint8_t *key, std::size_t key_length, const Ulid &in, Ulid *out) noexcept
{
    return run(true, key, key_length, in, out);
}

Status AesBlockCipher::decrypt(const std::uint8_t *key, std::size_t key_length, const Ulid &in, Ulid *out) noexcept
{
    return run(false, key, key_length, in, out);
}

bool parse_hex_key(const char *text, std::uint8_t out[kAes256KeyBytes], std::size_t *length) noexcept
{
    *length = 0;
    std::size_t digits = 0;
    while (text[digits] != '\0' && digits <= 2 * kAes256KeyBytes)
        ++digits;
    if (digits != 2 * kAes128KeyBytes && digits != 2 * kAes256KeyBytes)
        return false;
    std::uint8_t bytes[kAes256KeyBytes];
    for (std::size_t i = 0; i < digits / 2; ++i) {
        const int hi = hex_value(text[2 * i]);
        const int lo = hex_value(text[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            secure_wipe(bytes, sizeof bytes);
            return false;
        }
        bytes[i] = static_cast<std::uint8_t>(hi << 4 | lo);
    }
    std::memcpy(out, bytes, digits / 2);
    secure_wipe(bytes, sizeof bytes);
    *length = digits / 2;
    return true;
}

} // namespace ulid
