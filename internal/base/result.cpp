#include "base/result.hpp"

namespace mailroom {

std::string_view to_string(ErrorCode code)
{
  switch (code) {
  case ErrorCode::usage:
    return "usage";
  case ErrorCode::invalid_recipient:
    return "invalid_recipient";
  case ErrorCode::unknown_recipient:
    return "unknown_recipient";
  case ErrorCode::not_found:
    return "not_found";
  case ErrorCode::not_recipient:
    return "not_recipient";
  case ErrorCode::not_sender:
    return "not_sender";
  case ErrorCode::conflict:
    return "conflict";
  case ErrorCode::store_error:
    return "store_error";
  case ErrorCode::provider_error:
    return "provider_error";
  case ErrorCode::timeout:
    return "timeout";
  case ErrorCode::unsupported:
    return "unsupported";
  case ErrorCode::ambiguous_id:
    return "ambiguous_id";
  case ErrorCode::no_identity:
    return "no_identity";
  }
  return "store_error";
}

} // namespace mailroom
