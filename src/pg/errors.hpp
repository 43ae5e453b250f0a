// Core status -> PostgreSQL error, with the SQLSTATEs of docs/sql-reference.md (Errors). Every
// ERROR of the extension is worded in errors.cpp (which says what else is worded elsewhere).
#pragma once

#include "compat.h"
#include "core/crockford.hpp"
#include "core/status.hpp"

namespace ulid::pg {

// Raises the ERROR for a failed core status (time, generator and random failures). Does not
// return for any status other than ok.
void raise_status(Status status);

// Reports a text decoding failure as 22P02 with a DETAIL saying why. With a soft-error context
// (PostgreSQL 16+) it records the error and returns; the caller then returns (Datum) 0.
void report_decode_error(const DecodeError &error, const char *text, Node *escontext);

// Raises 22P03 for binary or bytea input that is not 16 bytes.
[[noreturn]] void raise_bad_binary_length(int length);

// Raises 22008 for an infinite timestamp.
[[noreturn]] void raise_infinite_timestamp();

// gen_monotonic_ulid()'s server-wide state (55000, each with a HINT): it needs the library preloaded
// (PostgreSQL 13-16); the segment was made by a library of another state layout (found: its
// layout, 0 when it has no header); attaching failed with the registry's message (a segment of an
// older library, whose size differs).
[[noreturn]] void raise_shared_state_needs_preload();
[[noreturn]] void raise_shared_layout_mismatch(unsigned found, unsigned ours);
[[noreturn]] void raise_shared_attach_failed(const char *message, unsigned ours);

// Loading the library: the fork handler could not be registered (53200).
[[noreturn]] void raise_fork_handler_failed();

// A C++ exception caught by ULID_FUNCTION's catch-all in function_name: std::bad_alloc is 53200
// (out of memory); any other is XX000, with what() as DETAIL when it is a std::exception (what is
// nullptr otherwise).
[[noreturn]] void raise_cpp_out_of_memory(const char *function_name);
[[noreturn]] void raise_cpp_exception(const char *function_name, const char *what);

// The operator argument of ulid_time_lower()/ulid_time_upper() is not =, <, <=, > or >= (22023).
[[noreturn]] void raise_bad_time_bound_operator(const char *text, int length);

// ulid_encrypt()/ulid_decrypt(): a key that is not 16 or 32 bytes (22023, naming its length); no
// OpenSSL (0A000: the server was built without it, or it is not found in the process); the
// one-argument forms without the library in shared_preload_libraries or without a key set (55000).
[[noreturn]] void raise_bad_key_length(int length);
[[noreturn]] void raise_cipher_unavailable(bool built_with_openssl);
[[noreturn]] void raise_public_id_key_not_preloaded();
[[noreturn]] void raise_public_id_key_not_set();
// Inside ulid.public_id_key's check hook, for a value it rejects: words the message without the
// value (PostgreSQL's default message would print it); the hook then returns false.
void report_bad_public_id_key();

} // namespace ulid::pg
