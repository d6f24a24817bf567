#pragma once

// pg::Statement: the PostgreSQL implementation of db::Statement. A statement is prepared on the
// server once per connection (PQprepare under a generated name) and owned by the connection's
// cache; Connection::cached hands out pointers to it.
//
// Parameters go as text in PostgreSQL's text format, except blobs, which go as binary bytea
// (format 1, type oid 17). Results come back in text format: column_text returns a bytea column
// as its raw bytes and anything else as the server's text; column_int reads booleans ("t"/"f")
// as 1/0. The first step() executes the statement and fetches all its rows; later steps walk
// them.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "db/statement.hpp"
#include "pg/parameters.hpp"
#include "pg/session.hpp"

namespace mailroom::pg {

class Connection;

class Statement final : public db::Statement {
public:
  Statement(Statement&&) = delete;
  Statement& operator=(Statement&&) = delete;
  ~Statement() override;

  // Binds parameter `index` (1..parameter_count()). Text is copied (it must hold no NUL byte:
  // PostgreSQL text cannot); blob bytes are not copied and must stay alive until the statement
  // has run. Errors: store_error (index out of range, NUL in text, blob over 1 GiB).
  Result<void> bind_null(int index) override;
  Result<void> bind_int(int index, std::int64_t value) override;
  Result<void> bind_double(int index, double value) override;
  Result<void> bind_text(int index, std::string_view text) override;
  Result<void> bind_blob(int index, std::string_view bytes) override;

  // The first call executes the statement with the current bindings; each call then moves to the
  // next row. After the last row: false, and the result is released (reset). Errors: store_error,
  // timeout (statement or lock timeout), store_error with Error::transient for a serialization
  // failure or deadlock; the connection's last_sqlstate() tells the SQLSTATE.
  Result<bool> step() override;
  // INSERT, UPDATE, DELETE and MERGE: the rows affected by the last completed run. 0 for others.
  std::int64_t changes() const override;
  // Releases the current result; the bindings stay.
  void reset() override;
  // Sets every parameter to NULL.
  void clear_bindings();
  // The highest ?N in the SQL.
  int parameter_count() const;

  int column_count() const override;
  std::string column_name(int column) const override;
  bool is_null(int column) const override;
  std::int64_t column_int(int column) const override;
  double column_double(int column) const override;
  std::string column_text(int column) const override;

  // The SQL as written (with ?N parameters).
  std::string_view sql() const override;
  // The SQL as sent to the server (with $N parameters).
  const std::string& translated_sql() const;

private:
  friend class Connection;
  Statement(detail::Session& session, std::string sql, TranslatedSql translated, std::string name);

  struct Parameter {
    bool is_null = true;
    bool is_blob = false;
    std::string text;       // text and numbers, NUL-terminated for libpq
    std::string_view bytes; // blobs, not owned
  };

  Result<void> check_index(int index) const;
  // The name of the prepared statement for the current bindings: the one prepared by
  // Connection::cached, or, when blobs are bound, a variant prepared with type bytea for them
  // (so that a blob is bytea even where the server would have inferred text).
  Result<std::string> prepared_name();
  Result<void> execute();
  const char* value(int column) const;

  detail::Session* m_session;
  std::string m_sql;
  TranslatedSql m_translated;
  std::string m_name;
  std::vector<Parameter> m_parameters;
  std::map<std::string, std::string> m_blob_variants; // blob positions ("0110") -> statement name
  detail::ResultPtr m_result;
  int m_row = -1;
  int m_rows = 0;
  std::int64_t m_changes = 0;
};

} // namespace mailroom::pg
