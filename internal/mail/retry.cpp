#include "mail/retry.hpp"

#include <algorithm>

namespace mailroom::mail {

bool store_may_recover(const Error& error)
{
  if (error.code != ErrorCode::store_error && error.code != ErrorCode::timeout) {
    return false;
  }
  return error.reason != k_store_replaced;
}

Millis next_store_retry(Millis previous)
{
  if (previous <= 0) {
    return k_store_retry_first_ms;
  }
  return std::min(previous * 2, k_store_retry_max_ms);
}

} // namespace mailroom::mail
