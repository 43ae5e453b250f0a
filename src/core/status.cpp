// Names of core status codes.
#include "status.hpp"

#include "pure.hpp"

namespace ulid {

const char *status_name(Status s) noexcept
{
    switch (s) {
    case Status::ok: return "ok";
    case Status::bad_length: return "bad_length";
    case Status::bad_character: return "bad_character";
    case Status::overflow: return "overflow";
    case Status::bad_binary_length: return "bad_binary_length";
    case Status::time_out_of_range: return "time_out_of_range";
    case Status::entropy_overflow: return "entropy_overflow";
    case Status::random_failure: return "random_failure";
    case Status::bad_key_length: return "bad_key_length";
    case Status::cipher_unavailable: return "cipher_unavailable";
    case Status::cipher_failure: return "cipher_failure";
    }
    return "unknown";
}

} // namespace ulid
