#pragma once

// A prepared SQLite statement: move-only, bound by position, stepped into a Result.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "base/result.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace mailroom::sqlite {

class Database;
namespace detail {
struct Connection;
}

// Bytes to bind as a BLOB (not TEXT): message bodies, which may be invalid UTF-8.
struct Blob {
  std::string_view bytes;
};

class Statement {
public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Binds `args` to parameters 1..n. Text and blobs are bound without copying, so they must outlive
  // the statement's use; temporary strings are refused at compile time. std::optional binds NULL
  // when empty. Errors: store_error (too big, out of range).
  template<typename... Args>
  Result<void> bind(Args&&... args)
  {
    int index = 0;
    Result<void> result;
    (void)((result = bind_at(++index, std::forward<Args>(args)), result.ok()) && ...);
    return result;
  }

  Result<void> bind_at(int index, std::string_view text);
  Result<void> bind_at(int index, const std::string& text);
  Result<void> bind_at(int index, std::string&& text) = delete;
  Result<void> bind_at(int index, const char* text);
  Result<void> bind_at(int index, Blob blob);
  Result<void> bind_at(int index, std::int64_t value);
  Result<void> bind_at(int index, int value);
  Result<void> bind_at(int index, bool value);
  Result<void> bind_at(int index, double value);
  Result<void> bind_at(int index, std::nullopt_t);
  template<typename T>
  Result<void> bind_at(int index, const std::optional<T>& value)
  {
    if (!value) {
      return bind_at(index, std::nullopt);
    }
    return bind_at(index, *value);
  }

  // Runs one step. True: a row is ready for get(). False: done; the statement is then reset, so a
  // read holds no transaction open. An error also resets it. Errors: timeout, store_error.
  Result<bool> step();

  // Steps to the end and returns the number of rows changed. Errors: timeout, store_error.
  Result<int> exec();

  // Column `column` (0-based) of the current row. std::string reads text or blob bytes as is;
  // std::optional<T> is empty for NULL.
  template<typename T>
  T get(int column) const;

  // True when column `column` of the current row is NULL.
  bool is_null(int column) const;

  // Ends the current run (releasing its read snapshot) and clears nothing else.
  void reset();

  // Clears every binding to NULL.
  void clear_bindings();

  // The SQL text this statement was prepared from.
  std::string_view sql() const;

private:
  friend class Database;
  Statement(sqlite3_stmt* stmt, const detail::Connection* connection)
      : m_stmt(stmt), m_connection(connection)
  {
  }

  std::string column_text(int column) const;
  std::int64_t column_int64(int column) const;
  double column_double(int column) const;
  Result<void> check_bind(int rc);

  sqlite3_stmt* m_stmt = nullptr;
  const detail::Connection* m_connection = nullptr;
};

// Resets a statement when it goes out of scope: for reads that stop before the last row.
class ResetGuard {
public:
  explicit ResetGuard(Statement& statement) : m_statement(&statement) {}
  ResetGuard(const ResetGuard&) = delete;
  ResetGuard& operator=(const ResetGuard&) = delete;
  ~ResetGuard() { m_statement->reset(); }

private:
  Statement* m_statement;
};

template<typename T>
T Statement::get(int column) const
{
  if constexpr (std::is_same_v<T, std::string>) {
    return column_text(column);
  } else if constexpr (std::is_same_v<T, bool>) {
    return column_int64(column) != 0;
  } else if constexpr (std::is_same_v<T, int>) {
    return static_cast<int>(column_int64(column));
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return column_int64(column);
  } else if constexpr (std::is_same_v<T, double>) {
    return column_double(column);
  } else {
    static_assert(std::is_same_v<T, std::optional<typename T::value_type>>, "unsupported column type");
    if (is_null(column)) {
      return std::nullopt;
    }
    return get<typename T::value_type>(column);
  }
}

} // namespace mailroom::sqlite
