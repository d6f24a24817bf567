#include "mail/retry.hpp"

#include <algorithm>

#include "base/reasons.hpp"

namespace mailroom::mail {

bool store_may_recover(const Error& error)
{
  if (error.code != ErrorCode::store_error && error.code != ErrorCode::timeout) {
    return false;
  }
  return error.reason != k_store_replaced;
}

bool store_may_come_up(const Error& open_error)
{
  return open_error.code == ErrorCode::timeout ||
         (open_error.code == ErrorCode::store_error && open_error.reason == k_reason_unreachable);
}

Millis next_store_retry(Millis previous)
{
  if (previous <= 0) {
    return k_store_retry_first_ms;
  }
  return std::min(previous * 2, k_store_retry_max_ms);
}

} // namespace mailroom::mail
