#pragma once

// SqlStore::write, the one write-transaction loop (included by store.hpp).

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

namespace mailroom::providers::sqlstore {

inline constexpr int k_transient_retries = 30;

// A random pause before a transaction runs again, its ceiling doubling with `attempt` from 1 ms to
// 100 ms (about 2 s in all before the last retry), so writers that keep failing each other
// (PostgreSQL's serialization failures between hosts) spread out instead of colliding again at once.
inline void pause_before_retry(int attempt)
{
  thread_local std::minstd_rand random(std::random_device{}());
  const int ceiling_us = std::min(1000 << std::min(attempt - 1, 7), 100000);
  std::uniform_int_distribution<int> pause(ceiling_us / 2, ceiling_us);
  std::this_thread::sleep_for(std::chrono::microseconds(pause(random)));
}

template<typename Fn>
auto SqlStore::write(Fn&& fn) -> decltype(fn(std::declval<db::Connection&>()))
{
  for (int attempt = 0;; ++attempt) {
    if (attempt > 0) {
      pause_before_retry(attempt); // the failed transaction was rolled back at the end of the last pass
    }
    TRY_ASSIGN(db::Connection * connection, m_engine->writer());
    TRY_ASSIGN(db::Transaction transaction, db::Transaction::begin(*connection, db::TransactionKind::write));
    auto result = fn(*connection);
    if (result.ok()) {
      auto committed = transaction.commit();
      if (committed.ok()) {
        return result;
      }
      if (!committed.error().transient || attempt >= k_transient_retries) {
        return std::move(committed).error();
      }
    } else if (!result.error().transient || attempt >= k_transient_retries) {
      return result;
    }
    // A concurrent transaction won; the destructor rolls back and the whole transaction runs again.
  }
}

template<typename Fn>
auto SqlStore::write_if_free(Fn&& fn) -> decltype(fn(std::declval<db::Connection&>()))
{
  TRY_ASSIGN(db::Connection * connection, m_engine->writer());
  TRY_ASSIGN(db::Transaction transaction, db::Transaction::begin(*connection, db::TransactionKind::write_if_free));
  auto result = fn(*connection);
  if (!result.ok()) {
    return result;
  }
  TRY(transaction.commit());
  return result;
}

} // namespace mailroom::providers::sqlstore
