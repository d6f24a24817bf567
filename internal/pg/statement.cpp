#include "pg/statement.hpp"

#include <charconv>
#include <climits>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <libpq-fe.h>

#include "pg/io.hpp"
#include "text/strings.hpp"

namespace mailroom::pg {

namespace {

constexpr Oid k_bytea_oid = 17;
constexpr std::size_t k_max_blob = 1U << 30U; // PostgreSQL's limit for one field

struct FreeMem {
  void operator()(unsigned char* bytes) const noexcept { PQfreemem(bytes); }
};

} // namespace

Statement::Statement(detail::Session& session, std::string sql, TranslatedSql translated, std::string name)
    : m_session(&session), m_sql(std::move(sql)), m_translated(std::move(translated)),
      m_name(std::move(name)), m_parameters(static_cast<std::size_t>(m_translated.parameter_count))
{
}

Statement::~Statement() = default;

Result<void> Statement::check_index(int index) const
{
  if (index < 1 || index > m_translated.parameter_count) {
    return make_error(ErrorCode::store_error, fmt::format("parameter ?{} out of range: the statement has {}",
                                                          index, m_translated.parameter_count));
  }
  return {};
}

Result<void> Statement::bind_null(int index)
{
  TRY(check_index(index));
  m_parameters[static_cast<std::size_t>(index - 1)] = Parameter{};
  return {};
}

Result<void> Statement::bind_int(int index, std::int64_t value)
{
  TRY(check_index(index));
  Parameter& parameter = m_parameters[static_cast<std::size_t>(index - 1)];
  parameter = Parameter{};
  parameter.is_null = false;
  parameter.text = fmt::format("{}", value);
  return {};
}

Result<void> Statement::bind_double(int index, double value)
{
  TRY(check_index(index));
  Parameter& parameter = m_parameters[static_cast<std::size_t>(index - 1)];
  parameter = Parameter{};
  parameter.is_null = false;
  parameter.text =
      fmt::format("{}", value); // shortest exact form; inf, -inf and nan as PostgreSQL reads them
  return {};
}

Result<void> Statement::bind_text(int index, std::string_view text)
{
  TRY(check_index(index));
  if (text.find('\0') != std::string_view::npos) {
    return make_error(
        ErrorCode::store_error,
        fmt::format("parameter ?{} holds a NUL byte, which postgresql text cannot store", index));
  }
  Parameter& parameter = m_parameters[static_cast<std::size_t>(index - 1)];
  parameter = Parameter{};
  parameter.is_null = false;
  parameter.text.assign(text);
  return {};
}

Result<void> Statement::bind_blob(int index, std::string_view bytes)
{
  TRY(check_index(index));
  if (bytes.size() >= k_max_blob) {
    return make_error(
        ErrorCode::store_error,
        fmt::format("parameter ?{} is {} bytes: postgresql takes less than 1 GiB", index, bytes.size()));
  }
  Parameter& parameter = m_parameters[static_cast<std::size_t>(index - 1)];
  parameter = Parameter{};
  parameter.is_null = false;
  parameter.is_blob = true;
  parameter.bytes = bytes;
  return {};
}

void Statement::clear_bindings()
{
  for (Parameter& parameter : m_parameters) {
    parameter = Parameter{};
  }
}

int Statement::parameter_count() const
{
  return m_translated.parameter_count;
}

Result<std::string> Statement::prepared_name()
{
  std::string blobs;
  bool any_blob = false;
  for (const Parameter& parameter : m_parameters) {
    const bool blob = !parameter.is_null && parameter.is_blob;
    blobs += blob ? '1' : '0';
    any_blob = any_blob || blob;
  }
  if (!any_blob) {
    return m_name;
  }
  const auto found = m_blob_variants.find(blobs);
  if (found != m_blob_variants.end()) {
    return found->second;
  }
  std::vector<Oid> types(m_parameters.size(), 0);
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    types[i] = blobs[i] == '1' ? k_bytea_oid : 0;
  }
  std::string name = fmt::format("{}_b{}", m_name, blobs);
  TRY(detail::check_result(
      *m_session,
      detail::await_result(*m_session, PQsendPrepare(m_session->conn, name.c_str(), m_translated.text.c_str(),
                                                     static_cast<int>(types.size()), types.data()))));
  m_blob_variants.emplace(std::move(blobs), name);
  return name;
}

Result<void> Statement::execute()
{
  const bool unnamed = m_session->unnamed_statements;
  std::string name;
  if (!unnamed) {
    TRY_ASSIGN(name, prepared_name());
  }
  const std::size_t count = m_parameters.size();
  std::vector<Oid> types(count, 0);
  std::vector<const char*> values(count, nullptr);
  std::vector<int> lengths(count, 0);
  std::vector<int> formats(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const Parameter& parameter = m_parameters[i];
    if (parameter.is_null) {
      continue;
    }
    if (parameter.is_blob) {
      // A zero-length blob is still a value: never pass a null pointer for it.
      values[i] = parameter.bytes.data() != nullptr ? parameter.bytes.data() : "";
      lengths[i] = static_cast<int>(parameter.bytes.size());
      formats[i] = 1;
      types[i] = k_bytea_oid;
    } else {
      values[i] = parameter.text.c_str();
    }
  }
  // Behind a transaction-pooling pooler, the unnamed statement: parsed, bound and run in one
  // round trip, so nothing outlives the server connection the pooler lends for this transaction.
  const int sent =
      unnamed ? PQsendQueryParams(m_session->conn, m_translated.text.c_str(), static_cast<int>(count),
                                  types.data(), values.data(), lengths.data(), formats.data(), 0)
              : PQsendQueryPrepared(m_session->conn, name.c_str(), static_cast<int>(count), values.data(),
                                    lengths.data(), formats.data(), 0);
  TRY_ASSIGN(m_result, detail::check_result(*m_session, detail::await_result(*m_session, sent)));
  m_rows = PQntuples(m_result.get());
  m_row = -1;
  m_changes = 0;
  const std::string_view status = PQcmdStatus(m_result.get());
  if (!text::starts_with(status, "SELECT")) {
    const std::string_view tuples = PQcmdTuples(m_result.get());
    std::from_chars(tuples.data(), tuples.data() + tuples.size(), m_changes);
  }
  return {};
}

Result<bool> Statement::step()
{
  if (!m_result) {
    auto executed = execute();
    if (!executed.ok()) {
      reset();
      return std::move(executed).error();
    }
  }
  ++m_row;
  if (m_row < m_rows) {
    return true;
  }
  reset();
  return false;
}

std::int64_t Statement::changes() const
{
  return m_changes;
}

void Statement::reset()
{
  m_result.reset();
  m_row = -1;
  m_rows = 0;
}

int Statement::column_count() const
{
  return m_result ? PQnfields(m_result.get()) : 0;
}

std::string Statement::column_name(int column) const
{
  const char* name = m_result ? PQfname(m_result.get(), column) : nullptr;
  return name != nullptr ? std::string(name) : std::string();
}

const char* Statement::value(int column) const
{
  if (!m_result || m_row < 0 || m_row >= m_rows) {
    return nullptr;
  }
  return PQgetvalue(m_result.get(), m_row, column);
}

bool Statement::is_null(int column) const
{
  if (!m_result || m_row < 0 || m_row >= m_rows || column < 0 || column >= column_count()) {
    return true;
  }
  return PQgetisnull(m_result.get(), m_row, column) != 0;
}

std::int64_t Statement::column_int(int column) const
{
  const char* text = is_null(column) ? nullptr : value(column);
  if (text == nullptr) {
    return 0;
  }
  if (std::strcmp(text, "t") == 0) {
    return 1;
  }
  if (std::strcmp(text, "f") == 0) {
    return 0;
  }
  std::int64_t number = 0;
  std::from_chars(text, text + std::strlen(text), number);
  return number;
}

double Statement::column_double(int column) const
{
  const char* text = is_null(column) ? nullptr : value(column);
  if (text == nullptr) {
    return 0.0;
  }
  double number = 0.0;
  std::from_chars(text, text + std::strlen(text), number);
  return number;
}

std::string Statement::column_text(int column) const
{
  const char* text = is_null(column) ? nullptr : value(column);
  if (text == nullptr) {
    return {};
  }
  const int length = PQgetlength(m_result.get(), m_row, column);
  if (PQftype(m_result.get(), column) != k_bytea_oid) {
    return std::string(text, static_cast<std::size_t>(length));
  }
  // bytea in text format: "\x" and hex digits (or the older escape format); libpq decodes both.
  std::size_t size = 0;
  const std::unique_ptr<unsigned char, FreeMem> bytes(
      PQunescapeBytea(reinterpret_cast<const unsigned char*>(text), &size));
  if (!bytes) {
    return {};
  }
  return std::string(reinterpret_cast<const char*>(bytes.get()), size);
}

std::string_view Statement::sql() const
{
  return m_sql;
}

const std::string& Statement::translated_sql() const
{
  return m_translated.text;
}

} // namespace mailroom::pg
