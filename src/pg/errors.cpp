// Error mapping: every ERROR of the extension is worded here, and raised from here. The only other
// messages are sortsupport.cpp's trace_sort LOG lines and those of the test-only functions of
// make ULID_TEST_THROW=1 (test_fork.cpp, test_throw.cpp; empty in the normal build).
#include "errors.hpp"

#include "core/time_range.hpp"

extern "C" {
#include "utils/guc.h"
}

namespace ulid::pg {

namespace {

const char kTimeRangeDetail[] =
    "A ULID holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.";

bool printable_ascii(std::uint8_t c)
{
    return c >= 0x21 && c <= 0x7E;
}

} // namespace

void raise_status(Status status)
{
    switch (status) {
    case Status::ok:
        return;
    case Status::time_out_of_range:
        ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                errmsg("timestamp out of range for ulid"), errdetail("%s", kTimeRangeDetail));
        break;
    case Status::entropy_overflow:
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("ulid entropy overflow within one millisecond"),
                errdetail("All 2^80 values after the first ULID of this millisecond were used."),
                errhint("Retry in the next millisecond."));
        break;
    case Status::random_failure:
        ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not generate random values"));
        break;
    case Status::cipher_failure:
        ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not run AES through OpenSSL"));
        break;
    case Status::bad_key_length:
    case Status::cipher_unavailable:
    case Status::bad_binary_length:
    case Status::bad_length:
    case Status::bad_character:
    case Status::overflow:
        break;
    }
    // Decoding statuses carry details that only their own reporters know.
    elog(ERROR, "unexpected ulid status \"%s\"", status_name(status));
}

namespace {

// A HINT for text that looks like a time: `id >= '2026-01-01'` resolves to ulid >= ulid.
int time_hint(const char *text)
{
    return errhint("To compare a ulid with a time, write the time as a timestamptz: '%s'::timestamptz.",
                   text);
}

} // namespace

void report_decode_error(const DecodeError &error, const char *text, Node *escontext)
{
    const int position = static_cast<int>(error.position);
    const bool time_like = looks_like_time(text);
    switch (error.status) {
    case Status::bad_length:
        ULID_ERRSAVE(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                     errmsg("invalid input syntax for type %s: \"%s\"", "ulid", text),
                     errdetail_plural("A ULID is exactly 26 ASCII characters; the input is %d byte long.",
                                      "A ULID is exactly 26 ASCII characters; the input is %d bytes long.",
                                      static_cast<unsigned long>(error.length),
                                      static_cast<int>(error.length)),
                     time_like ? time_hint(text) : 0);
        return;
    case Status::bad_character:
        if (printable_ascii(error.byte))
            ULID_ERRSAVE(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                         errmsg("invalid input syntax for type %s: \"%s\"", "ulid", text),
                         errdetail("Character \"%c\" at position %d is not in the Crockford "
                                   "Base32 alphabet.",
                                   static_cast<char>(error.byte), position),
                         time_like ? time_hint(text) : 0);
        else
            ULID_ERRSAVE(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                         errmsg("invalid input syntax for type %s: \"%s\"", "ulid", text),
                         errdetail("Byte 0x%02X at position %d is not in the Crockford Base32 "
                                   "alphabet.",
                                   static_cast<unsigned>(error.byte), position),
                         time_like ? time_hint(text) : 0);
        return;
    case Status::overflow:
        ULID_ERRSAVE(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                     errmsg("invalid input syntax for type %s: \"%s\"", "ulid", text),
                     errdetail("The first character \"%c\" is above \"7\": the value would not fit "
                               "in 128 bits.",
                               static_cast<char>(error.byte)));
        return;
    default:
        elog(ERROR, "unexpected ulid decode status \"%s\"", status_name(error.status));
    }
}

void raise_bad_binary_length(int length)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
            errmsg("invalid binary input for type %s", "ulid"),
            errdetail("A ulid is 16 bytes; the input has %d.", length));
}

void raise_infinite_timestamp()
{
    ereport(ERROR, errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
            errmsg("timestamp out of range for ulid"),
            errdetail("An infinite timestamp has no ULID. %s", kTimeRangeDetail));
}

void raise_shared_state_needs_preload()
{
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
            errmsg("gen_monotonic_ulid() needs the ulid library in shared_preload_libraries"),
            errdetail("Its server-wide state lives in shared memory, which PostgreSQL 16 and "
                      "earlier reserve only at server start (17 and later allocate it on first use)."),
            errhint("Add 'ulid' to shared_preload_libraries in postgresql.conf, for example "
                    "shared_preload_libraries = 'ulid', and restart the server."));
}

void raise_fork_handler_failed()
{
    ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY),
            errmsg("could not register the fork handler of the ulid library"),
            errdetail("pthread_atfork() failed; without it a process forked inside a backend could "
                      "repeat the backend's random bytes."));
}

void raise_cpp_out_of_memory(const char *function_name)
{
    ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"),
            errdetail("C++ allocation failed in %s.", function_name));
}

void raise_cpp_exception(const char *function_name, const char *what)
{
    if (what)
        ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
                errmsg("unexpected C++ exception in %s", function_name), errdetail("%s", what));
    ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
            errmsg("unexpected C++ exception in %s", function_name));
}

void raise_bad_time_bound_operator(const char *text, int length)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("invalid operator \"%.*s\" for a ulid time bound", length, text),
            errhint("Use one of =, <, <=, >, >=."));
}

namespace {
const char kRestartHint[] = "Restart the server after installing another version of ulid, so that "
                            "every session runs the same library.";
}

void raise_shared_layout_mismatch(unsigned found, unsigned ours)
{
    if (found == 0)
        ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                errmsg("gen_monotonic_ulid() cannot use this server's shared state"),
                errdetail("Another version of the ulid library made it without a layout header; "
                          "this library uses state layout %u.", ours),
                errhint("%s", kRestartHint));
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
            errmsg("gen_monotonic_ulid() cannot use this server's shared state"),
            errdetail("Another version of the ulid library made it with state layout %u; this "
                      "library uses state layout %u.", found, ours),
            errhint("%s", kRestartHint));
}

void raise_shared_attach_failed(const char *message, unsigned ours)
{
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
            errmsg("gen_monotonic_ulid() cannot use this server's shared state"),
            errdetail("Attaching it failed: %s. A version of the ulid library before 0.2.1 makes a "
                      "state of another size; this library uses state layout %u.", message, ours),
            errhint("%s", kRestartHint));
}

void raise_bad_key_length(int length)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("ulid key must be 16 or 32 bytes"),
            errdetail_plural("The key given is %d byte.", "The key given is %d bytes.", length, length),
            errhint("Use 16 bytes for AES-128 or 32 for AES-256, for instance gen_random_bytes(32) of pgcrypto, "
                    "kept as bytea."));
}

void raise_cipher_unavailable(bool built_with_openssl)
{
    ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
            errmsg("ulid_encrypt() and ulid_decrypt() need OpenSSL"),
            built_with_openssl ? errdetail("The server process has no OpenSSL cipher functions.")
                               : errdetail("This server was built without OpenSSL."));
}

void raise_public_id_key_not_preloaded()
{
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
            errmsg("the server-held key needs ulid in shared_preload_libraries"),
            errdetail("Until the library is loaded, ulid.public_id_key is a placeholder setting that every role can read."),
            errhint("Add ulid to shared_preload_libraries and restart the server (also after installing a new "
                    "version of the library), or pass the key as an argument."));
}

void raise_public_id_key_not_set()
{
    ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE), errmsg("ulid.public_id_key is not set"),
            errhint("Set it in postgresql.conf (or a file it includes, readable by the server only) and restart the server."));
}

void report_bad_public_id_key()
{
    GUC_check_errmsg("invalid value for parameter \"ulid.public_id_key\" (the value is not shown)");
    GUC_check_errdetail("The key is 32 hexadecimal digits (AES-128) or 64 (AES-256), and nothing else.");
}

} // namespace ulid::pg
