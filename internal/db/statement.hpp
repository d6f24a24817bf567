#pragma once

// db::Statement: one prepared SQL statement of any SQL engine the stores run on (SQLite, PostgreSQL).
// The store logic in providers/sqlstore is written once against this interface; each engine's
// wrapper (internal/sqlite, internal/pg) implements it. Parameters are bound by position (1-based),
// columns are read by position or by name, and text and blobs come back as raw bytes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/result.hpp"

namespace mailroom::db {

// Bytes to bind as a BLOB/bytea, not as text: message bodies, which may be invalid UTF-8.
struct Blob {
  std::string_view bytes;
};

class Statement {
public:
  virtual ~Statement() = default;
  Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binds one parameter (1-based). Text and blobs are not copied by every engine: the bytes must
  // stay alive until the statement has run. Errors: store_error (out of range, too big).
  virtual Result<void> bind_null(int index) = 0;
  virtual Result<void> bind_int(int index, std::int64_t value) = 0;
  virtual Result<void> bind_double(int index, double value) = 0;
  virtual Result<void> bind_text(int index, std::string_view text) = 0;
  virtual Result<void> bind_blob(int index, std::string_view bytes) = 0;

  // Binds `args` to parameters 1..n: strings as text, db::Blob as a blob, integers, bool (0/1),
  // double, std::nullopt and empty std::optional as NULL. Temporary strings are refused.
  // Arguments past the statement's highest parameter are ignored, so one call can serve the
  // statements of a family that use a prefix of the same parameters.
  template <typename... Args> Result<void> bind(Args&&... args)
  {
    const int count = parameter_count();
    int index = 0;
    Result<void> result;
    (void)((++index > count || (result = bind_one(index, std::forward<Args>(args)), result.ok())) && ...);
    return result;
  }

  // The highest parameter number the SQL uses.
  virtual int parameter_count() const = 0;

  // Runs one step. True: a row is ready for the column getters. False: done; the statement is then
  // reset so no read snapshot stays open. An error also resets it. Errors: timeout, store_error.
  virtual Result<bool> step() = 0;

  // Steps to the end and returns the number of rows the statement changed.
  Result<std::int64_t> exec();

  // Calls `fn(*this)` for every row; `fn` returns Result<void> (stopping at its first error) or void.
  template <typename Fn> Result<void> for_each_row(Fn&& fn);

  // Rows changed by the last completed run of this statement.
  virtual std::int64_t changes() const = 0;

  // Ends the current run (releasing its snapshot); bindings stay.
  virtual void reset() = 0;

  // Columns of the current row, 0-based.
  virtual int column_count() const = 0;
  virtual std::string column_name(int column) const = 0;
  virtual bool is_null(int column) const = 0;
  // Integers; engines that return booleans as text ("t"/"f") give 1/0.
  virtual std::int64_t column_int(int column) const = 0;
  virtual double column_double(int column) const = 0;
  // Text or blob bytes exactly as stored.
  virtual std::string column_text(int column) const = 0;

  // The index of the column named `name` in this statement's result. Must exist: naming a column
  // the SQL does not return is a programming error (asserted in debug builds; -1 otherwise).
  int column_index(std::string_view name) const;

  // Typed getters by position or name: std::string, std::int64_t, int, bool, double, and
  // std::optional of those (empty for NULL).
  template <typename T> T get(int column) const;
  template <typename T> T get(std::string_view name) const { return get<T>(column_index(name)); }

  // The SQL text this statement was prepared from.
  virtual std::string_view sql() const = 0;

private:
  Result<void> bind_one(int index, std::string_view text) { return bind_text(index, text); }
  Result<void> bind_one(int index, const std::string& text) { return bind_text(index, text); }
  Result<void> bind_one(int index, std::string&& text) = delete;
  Result<void> bind_one(int index, const char* text) { return bind_text(index, text); }
  Result<void> bind_one(int index, Blob blob) { return bind_blob(index, blob.bytes); }
  Result<void> bind_one(int index, std::int64_t value) { return bind_int(index, value); }
  Result<void> bind_one(int index, int value) { return bind_int(index, value); }
  Result<void> bind_one(int index, bool value) { return bind_int(index, value ? 1 : 0); }
  Result<void> bind_one(int index, double value) { return bind_double(index, value); }
  Result<void> bind_one(int index, std::nullopt_t /*unused*/) { return bind_null(index); }
  template <typename T> Result<void> bind_one(int index, const std::optional<T>& value)
  {
    if (!value) {
      return bind_null(index);
    }
    return bind_one(index, *value);
  }

  mutable std::vector<std::string> m_names; // column names, filled on first lookup by name
};

template <typename T> T Statement::get(int column) const
{
  if constexpr (std::is_same_v<T, std::string>) {
    return column_text(column);
  } else if constexpr (std::is_same_v<T, bool>) {
    return column_int(column) != 0;
  } else if constexpr (std::is_same_v<T, int>) {
    return static_cast<int>(column_int(column));
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return column_int(column);
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

template <typename Fn> Result<void> Statement::for_each_row(Fn&& fn)
{
  while (true) {
    TRY_ASSIGN(const bool has_row, step());
    if (!has_row) {
      return {};
    }
    if constexpr (std::is_void_v<decltype(fn(*this))>) {
      fn(*this);
    } else {
      auto done = fn(*this);
      if (!done.ok()) {
        reset();
        return std::move(done).error();
      }
    }
  }
}

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

} // namespace mailroom::db
