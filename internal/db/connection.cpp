#include "db/connection.hpp"

#include <utility>

namespace mailroom::db {

Result<Transaction> Transaction::begin(Connection& connection, TransactionKind kind)
{
  TRY(connection.begin(kind));
  return Transaction(connection);
}

Transaction::Transaction(Transaction&& other) noexcept
    : m_connection(other.m_connection), m_done(std::exchange(other.m_done, true))
{
}

Transaction::~Transaction()
{
  if (!m_done) {
    m_connection->rollback();
  }
}

Result<void> Transaction::commit()
{
  auto result = m_connection->commit();
  if (result.ok()) {
    m_done = true;
  }
  return result;
}

} // namespace mailroom::db
