#pragma once

// db::Statement: the SQLite implementation of db::Statement (bind, step, typed getters).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.hpp"
#include "db/statement.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace mailroom::sqlite {

class Database;
namespace detail {
struct Connection;
}

using Blob = db::Blob;
using ResetGuard = db::ResetGuard;

class Statement final : public db::Statement {
public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  ~Statement() override;

  Result<void> bind_null(int index) override;
  Result<void> bind_int(int index, std::int64_t value) override;
  Result<void> bind_double(int index, double value) override;
  Result<void> bind_text(int index, std::string_view text) override;
  Result<void> bind_blob(int index, std::string_view bytes) override;

  int parameter_count() const override;
  Result<bool> step() override;
  std::int64_t changes() const override;
  void reset() override;
  // Clears every binding to NULL.
  void clear_bindings();

  int column_count() const override;
  std::string column_name(int column) const override;
  bool is_null(int column) const override;
  std::int64_t column_int(int column) const override;
  double column_double(int column) const override;
  std::string column_text(int column) const override;

  std::string_view sql() const override;

private:
  friend class Database;
  Statement(sqlite3_stmt* stmt, const detail::Connection* connection) : m_stmt(stmt), m_connection(connection)
  {
  }

  Result<void> check_bind(int rc);

  sqlite3_stmt* m_stmt = nullptr;
  const detail::Connection* m_connection = nullptr;
  std::int64_t m_changes = 0;
};

} // namespace mailroom::sqlite
