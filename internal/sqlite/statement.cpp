#include "sqlite/statement.hpp"

#include <sqlite3.h>

#include "sqlite/connection.hpp"

namespace mailroom::sqlite {

Statement::Statement(Statement&& other) noexcept
    : db::Statement(), m_stmt(std::exchange(other.m_stmt, nullptr)), m_connection(other.m_connection),
      m_changes(other.m_changes)
{
}

Statement& Statement::operator=(Statement&& other) noexcept
{
  if (this != &other) {
    sqlite3_finalize(m_stmt);
    m_stmt = std::exchange(other.m_stmt, nullptr);
    m_connection = other.m_connection;
  }
  return *this;
}

Statement::~Statement()
{
  sqlite3_finalize(m_stmt);
}

Result<void> Statement::check_bind(int rc)
{
  if (rc != SQLITE_OK) {
    return detail::connection_error(*m_connection, rc);
  }
  return {};
}

Result<void> Statement::bind_text(int index, std::string_view text)
{
  // SQLITE_STATIC: no copy; callers keep the text alive while the statement runs.
  return check_bind(sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8));
}

Result<void> Statement::bind_blob(int index, std::string_view bytes)
{
  // A zero-length blob must still be a blob, not NULL, so never pass a null pointer.
  const char* data = bytes.data() != nullptr ? bytes.data() : "";
  return check_bind(sqlite3_bind_blob64(m_stmt, index, data, bytes.size(), SQLITE_STATIC));
}

Result<void> Statement::bind_int(int index, std::int64_t value)
{
  return check_bind(sqlite3_bind_int64(m_stmt, index, value));
}

Result<void> Statement::bind_double(int index, double value)
{
  return check_bind(sqlite3_bind_double(m_stmt, index, value));
}

Result<void> Statement::bind_null(int index)
{
  return check_bind(sqlite3_bind_null(m_stmt, index));
}

Result<bool> Statement::step()
{
  const int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) {
    return true;
  }
  if (rc == SQLITE_DONE) {
    m_changes = sqlite3_changes64(sqlite3_db_handle(m_stmt));
    sqlite3_reset(m_stmt);
    return false;
  }
  // Read the message before reset, which may replace it.
  Error error = detail::connection_error(*m_connection, rc);
  sqlite3_reset(m_stmt);
  return error;
}

int Statement::parameter_count() const
{
  return sqlite3_bind_parameter_count(m_stmt);
}

std::int64_t Statement::changes() const
{
  return m_changes;
}

int Statement::column_count() const
{
  return sqlite3_column_count(m_stmt);
}

std::string Statement::column_name(int column) const
{
  const char* name = sqlite3_column_name(m_stmt, column);
  return name != nullptr ? std::string(name) : std::string();
}

bool Statement::is_null(int column) const
{
  return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::string Statement::column_text(int column) const
{
  // column_blob before column_bytes: the byte count then describes the bytes as stored, with no
  // text conversion, so invalid UTF-8 comes back unchanged.
  const void* data = sqlite3_column_blob(m_stmt, column);
  const int size = sqlite3_column_bytes(m_stmt, column);
  if (data == nullptr || size <= 0) {
    return {};
  }
  return std::string(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

std::int64_t Statement::column_int(int column) const
{
  return sqlite3_column_int64(m_stmt, column);
}

double Statement::column_double(int column) const
{
  return sqlite3_column_double(m_stmt, column);
}

void Statement::reset()
{
  sqlite3_reset(m_stmt);
}

void Statement::clear_bindings()
{
  sqlite3_clear_bindings(m_stmt);
}

std::string_view Statement::sql() const
{
  const char* text = sqlite3_sql(m_stmt);
  return text != nullptr ? std::string_view(text) : std::string_view();
}

} // namespace mailroom::sqlite
