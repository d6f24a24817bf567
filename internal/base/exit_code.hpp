#pragma once

// The contract's exit codes, and the one mapping from error codes to them.

#include "base/result.hpp"

namespace mailroom {

enum class ExitCode {
  ok = 0,            // success; for check: there is unread mail
  none = 1,          // a negative answer (check found no unread mail; wait timed out), not an error
  usage = 2,         // bad flags, missing id, invalid or unknown recipient, bad config
  not_found = 3,     // no such message id or thread
  conflict = 4,      // not a recipient of that message; idempotency key reused with other content
  failure = 5,       // store or provider failure; retrying may help
  interrupted = 130, // SIGINT ended wait, watch or sweep --every
  terminated = 143,  // SIGTERM ended them
};

constexpr ExitCode to_exit_code(ErrorCode code)
{
  switch (code) {
  case ErrorCode::usage:
  case ErrorCode::invalid_recipient:
  case ErrorCode::unknown_recipient:
  case ErrorCode::ambiguous_id:
  case ErrorCode::no_identity:
    return ExitCode::usage;
  case ErrorCode::not_found:
    return ExitCode::not_found;
  case ErrorCode::not_recipient:
  case ErrorCode::not_sender:
  case ErrorCode::conflict:
    return ExitCode::conflict;
  case ErrorCode::store_error:
  case ErrorCode::provider_error:
  case ErrorCode::timeout:
  case ErrorCode::unsupported:
    return ExitCode::failure;
  }
  return ExitCode::failure;
}

constexpr int to_int(ExitCode code)
{
  return static_cast<int>(code);
}

} // namespace mailroom
