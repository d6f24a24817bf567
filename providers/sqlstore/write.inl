#pragma once

// SqlStore::write, the one write-transaction loop (included by store.hpp).

namespace mailroom::providers::sqlstore {

inline constexpr int k_transient_retries = 8;

template<typename Fn>
auto SqlStore::write(Fn&& fn) -> decltype(fn(std::declval<db::Connection&>()))
{
  for (int attempt = 0;; ++attempt) {
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

} // namespace mailroom::providers::sqlstore
