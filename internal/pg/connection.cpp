#include "pg/connection.hpp"

#include <map>
#include <vector>

#include <fmt/format.h>
#include <libpq-fe.h>

#include "text/strings.hpp"

namespace mailroom::pg {

struct Connection::State {
  detail::Session session;
  // Keyed by the SQL text as written. Declared after the session, so destroyed before it.
  std::map<std::string, std::unique_ptr<Statement>, std::less<>> cache;
};

namespace {

void ignore_notice(void* /*context*/, const char* /*message*/) {}

struct ConninfoFree {
  void operator()(PQconninfoOption* options) const noexcept { PQconninfoFree(options); }
};

std::string where(PGconn* conn)
{
  const char* host = PQhost(conn);
  const char* port = PQport(conn);
  const char* db = PQdb(conn);
  return fmt::format("{}:{}/{}", host != nullptr ? host : "", port != nullptr ? port : "",
                     db != nullptr ? db : "");
}

Result<detail::ResultPtr> run(detail::Session& session, const char* sql)
{
  return detail::check_result(session, PQexec(session.conn, sql));
}

} // namespace

bool is_url(std::string_view text)
{
  return text::starts_with(text, "postgresql://") || text::starts_with(text, "postgres://");
}

Connection::Connection(std::unique_ptr<State> state) : m_state(std::move(state)) {}
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;
Connection::~Connection() = default;

Result<Connection> Connection::open(std::string_view url, const OpenOptions& options)
{
  if (!is_url(url)) {
    return make_error(ErrorCode::store_error,
                      "not a postgresql url: it must start with postgresql:// or postgres://");
  }
  auto state = std::make_unique<State>();
  detail::Session& session = state->session;
  session.secrets = detail::url_secrets(url);
  const std::string url_text(url);

  // Parsing first gives a malformed URL its own message, with no connection attempt.
  char* parse_error = nullptr;
  const std::unique_ptr<PQconninfoOption, ConninfoFree> parsed(
      PQconninfoParse(url_text.c_str(), &parse_error));
  if (!parsed) {
    const std::string reason = parse_error != nullptr ? parse_error : "out of memory";
    PQfreemem(parse_error);
    return make_error(
        ErrorCode::store_error,
        fmt::format("bad postgresql url: {}", detail::clean_message(session.secrets, reason).reason));
  }
  bool has_timeout = false;
  for (const PQconninfoOption* option = parsed.get(); option->keyword != nullptr; ++option) {
    const std::string_view keyword = option->keyword;
    if (option->val != nullptr && keyword == "password" && *option->val != '\0') {
      session.secrets.emplace_back(option->val);
    }
    has_timeout =
        has_timeout || (keyword == "connect_timeout" && option->val != nullptr && *option->val != '\0');
  }

  // Later keywords override earlier ones, and the URL (expanded from dbname) overrides those
  // before it: the URL may set connect_timeout and application_name, not client_encoding.
  const std::string timeout = fmt::format("{}", options.connect_timeout.count());
  std::vector<const char*> keywords;
  std::vector<const char*> values;
  if (!has_timeout) {
    keywords.push_back("connect_timeout");
    values.push_back(timeout.c_str());
  }
  keywords.insert(keywords.end(), {"fallback_application_name", "dbname", "client_encoding", nullptr});
  values.insert(values.end(), {"mailroom", url_text.c_str(), "UTF8", nullptr});
  session.conn = PQconnectdbParams(keywords.data(), values.data(), 1);
  if (session.conn == nullptr) {
    return make_error(ErrorCode::store_error, "cannot connect to postgresql: out of memory");
  }
  session.where = where(session.conn);
  if (PQstatus(session.conn) != CONNECTION_OK) {
    detail::Message message = detail::clean_message(session.secrets, PQerrorMessage(session.conn));
    return make_error(
        ErrorCode::store_error,
        fmt::format("cannot connect to postgresql at \"{}\": {}", session.where, message.reason),
        std::move(message.hint));
  }
  PQsetNoticeProcessor(session.conn, ignore_notice, nullptr);
  if (options.statement_timeout.count() > 0) {
    const std::string milliseconds = fmt::format("{}", options.statement_timeout.count());
    const char* params[] = {milliseconds.c_str()};
    TRY(detail::check_result(session,
                             PQexecParams(session.conn, "SELECT set_config('statement_timeout', $1, false)",
                                          1, nullptr, params, nullptr, nullptr, 0)));
  }
  return Connection(std::move(state));
}

Result<db::Statement*> Connection::cached(std::string_view sql)
{
  TRY_ASSIGN(Statement * statement, cached_statement(sql));
  return statement;
}

Result<Statement*> Connection::cached_statement(std::string_view sql)
{
  auto& cache = m_state->cache;
  const auto found = cache.find(sql);
  if (found != cache.end()) {
    found->second->reset();
    found->second->clear_bindings();
    return found->second.get();
  }
  detail::Session& session = m_state->session;
  TRY_ASSIGN(TranslatedSql translated, translate_parameters(sql));
  std::string name = fmt::format("mailroom_{}", ++session.statement_count);
  TRY(detail::check_result(session,
                           PQprepare(session.conn, name.c_str(), translated.text.c_str(), 0, nullptr)));
  std::unique_ptr<Statement> statement(
      new Statement(session, std::string(sql), std::move(translated), std::move(name)));
  Statement* pointer = statement.get();
  cache.emplace(std::string(sql), std::move(statement));
  return pointer;
}

Result<void> Connection::execute_script(std::string_view sql)
{
  const std::string text(sql);
  TRY(run(m_state->session, text.c_str()));
  return {};
}

Result<void> Connection::begin(db::TransactionKind kind)
{
  detail::Session& session = m_state->session;
  if (session.connected() && PQtransactionStatus(session.conn) != PQTRANS_IDLE) {
    return make_error(ErrorCode::store_error,
                      fmt::format("postgresql at \"{}\": a transaction is already open", session.where));
  }
  TRY(run(session, kind == db::TransactionKind::write ? "BEGIN ISOLATION LEVEL SERIALIZABLE"
                                                      : "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"));
  return {};
}

Result<void> Connection::commit()
{
  detail::Session& session = m_state->session;
  detail::ResultPtr result(PQexec(session.conn, "COMMIT"));
  const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK) {
    return detail::command_error(session, result.get(), "commit");
  }
  // COMMIT of a transaction that had failed succeeds as a command but rolls back.
  if (std::string_view(PQcmdStatus(result.get())) == "ROLLBACK") {
    session.last_sqlstate = "25P02"; // in_failed_sql_transaction
    return make_error(ErrorCode::store_error,
                      fmt::format("postgresql at \"{}\": the transaction had failed and was rolled "
                                  "back instead of committed",
                                  session.where));
  }
  session.last_sqlstate.clear();
  return {};
}

void Connection::rollback() noexcept
{
  detail::Session& session = m_state->session;
  if (session.connected() && PQtransactionStatus(session.conn) != PQTRANS_IDLE) {
    PQclear(PQexec(session.conn, "ROLLBACK"));
  }
}

detail::Session& Connection::session() const
{
  return m_state->session;
}

std::string Connection::describe() const
{
  return m_state->session.where;
}

const std::string& Connection::last_sqlstate() const
{
  return m_state->session.last_sqlstate;
}

int Connection::backend_pid() const
{
  return PQbackendPID(m_state->session.conn);
}

pg_conn* Connection::handle() const
{
  return m_state->session.conn;
}

} // namespace mailroom::pg
