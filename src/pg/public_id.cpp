// Public ids: ulid_encrypt(ulid, bytea) and ulid_decrypt(ulid, bytea), AES of the 16 bytes with the
// key given; ulid_encrypt(ulid) and ulid_decrypt(ulid) with the key the server holds in
// ulid.public_id_key (set in postgresql.conf, readable only by superusers and pg_read_all_settings).
// The setting takes effect at server start only (PGC_POSTMASTER): at a reload PostgreSQL logs the
// new value of every setting that changed ("parameter ... changed to ..."), which would put the key
// into the server log; a changed value of a PGC_POSTMASTER setting is logged without it.
// The cipher is OpenSSL's, found in the server process (src/core/aes.hpp): a server built without
// OpenSSL loads the library and raises 0A000 here.
#include "public_id.hpp"

#include "datum.hpp"
#include "entry.hpp"
#include "errors.hpp"

extern "C" {
#include "utils/guc.h"
}

#include "core/aes.hpp"
#include "core/entropy.hpp"

using namespace ulid;
using namespace ulid::pg;

// make ULID_TEST_NO_OPENSSL=1 (a test-only library, never installed) behaves as on a server built
// without OpenSSL, for t/170_public_ids.pl.
#if defined(USE_OPENSSL) && !defined(ULID_TEST_NO_OPENSSL)
#define ULID_HAVE_OPENSSL 1
#else
#define ULID_HAVE_OPENSSL 0
#endif

namespace {

char *public_id_key = nullptr; // the setting's value: "" or 32 or 64 hexadecimal digits
bool key_setting_preloaded = false;

// Never destroyed: its prepared keys are OpenSSL's, and OpenSSL may be gone at exit.
AesBlockCipher &cipher()
{
    static AesBlockCipher *instance = new AesBlockCipher();
    return *instance;
}

// The value is never printed: PostgreSQL's own message for a rejected value would show it.
[[maybe_unused]] bool check_public_id_key(char **newval, void **extra, GucSource source)
{
    if (*newval == nullptr || (*newval)[0] == '\0')
        return true;
    std::uint8_t key[kAes256KeyBytes];
    std::size_t length = 0;
    const bool ok = parse_hex_key(*newval, key, &length);
    secure_wipe(key, sizeof key);
    if (!ok)
        report_bad_public_id_key();
    return ok;
}

// Runs the cipher with a key into *out and returns its status; raises nothing, so that a caller
// can wipe its copy of the key before it raises. A build without OpenSSL answers as the cipher
// does where the process has none (the key's length first, then cipher_unavailable).
Status apply(bool forward, const Ulid &in, const std::uint8_t *key, std::size_t key_length, Ulid *out)
{
    if (!ULID_HAVE_OPENSSL)
        return valid_aes_key_length(key_length) ? Status::cipher_unavailable : Status::bad_key_length;
    return forward ? cipher().encrypt(key, key_length, in, out) : cipher().decrypt(key, key_length, in, out);
}

// Raises the error of a status other than ok (key_length for bad_key_length).
void raise_cipher_status(Status status, std::size_t key_length)
{
    if (status == Status::bad_key_length)
        raise_bad_key_length(static_cast<int>(key_length));
    if (status == Status::cipher_unavailable)
        raise_cipher_unavailable(ULID_HAVE_OPENSSL);
    raise_status(status);
}

Datum run_with_argument(FunctionCallInfo fcinfo, bool forward)
{
    bytea *key = PG_GETARG_BYTEA_PP(1);
    const std::size_t length = VARSIZE_ANY_EXHDR(key);
    Ulid out;
    const Status status =
        apply(forward, *arg_ulid(fcinfo, 0), reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(key)), length, &out);
    if (reinterpret_cast<Pointer>(key) != DatumGetPointer(PG_GETARG_DATUM(1))) {
        secure_wipe(VARDATA_ANY(key), length); // a detoasted copy of the key: ours to wipe and free
        pfree(key);
    }
    raise_cipher_status(status, length);
    return ulid_to_datum(out);
}

Datum run_with_server_key(FunctionCallInfo fcinfo, bool forward)
{
    if (!key_setting_preloaded)
        raise_public_id_key_not_preloaded();
    std::uint8_t key[kAes256KeyBytes];
    std::size_t length = 0;
    if (public_id_key == nullptr || public_id_key[0] == '\0' || !parse_hex_key(public_id_key, key, &length))
        raise_public_id_key_not_set(); // an invalid value never gets past the check hook
    Ulid out;
    const Status status = apply(forward, *arg_ulid(fcinfo, 0), key, length, &out);
    secure_wipe(key, sizeof key);
    raise_cipher_status(status, length);
    return ulid_to_datum(out);
}

} // namespace

void ulid::pg::define_public_id_key(bool preloaded)
{
#if defined(ULID_TEST_THROW) || defined(ULID_TEST_LAYOUT) || defined(ULID_TEST_NO_OPENSSL)
    // A test-only library is loaded beside ulid.so, which defines the setting (defining it twice is
    // an ERROR): here the server-key forms stay "not preloaded".
    (void) preloaded;
#else
    // PostgreSQL refuses (FATAL) a PGC_POSTMASTER setting defined after the server started: a
    // library loaded later leaves the setting undefined, and the server-key forms refuse to run.
    key_setting_preloaded = preloaded;
    if (!preloaded)
        return;
    DefineCustomStringVariable("ulid.public_id_key",
                               "Key of ulid_encrypt(ulid) and ulid_decrypt(ulid): 32 or 64 hexadecimal digits.",
                               "Set it in postgresql.conf (or a file it includes) and restart; only superusers "
                               "and members of pg_read_all_settings may read it.",
                               &public_id_key, "", PGC_POSTMASTER,
                               GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_AUTO_FILE,
                               check_public_id_key, nullptr, nullptr);
#endif
}

ULID_FUNCTION(ulid_encrypt) { return run_with_argument(fcinfo, true); }

ULID_FUNCTION(ulid_decrypt) { return run_with_argument(fcinfo, false); }

ULID_FUNCTION(ulid_encrypt_server_key) { return run_with_server_key(fcinfo, true); }

ULID_FUNCTION(ulid_decrypt_server_key) { return run_with_server_key(fcinfo, false); }
