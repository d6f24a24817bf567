#include "pg/connection.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <map>
#include <vector>

#include <fmt/format.h>
#include <libpq-fe.h>
#include <poll.h>

#include "base/reasons.hpp"
#include "pg/connect.hpp"
#include "pg/host_memory.hpp"
#include "pg/io.hpp"
#include "pg/tls_start.hpp"
#include "text/conninfo.hpp"
#include "text/strings.hpp"

namespace mailroom::pg {

struct Connection::State {
  detail::Session session;
  // Keyed by the SQL text as written. Declared after the session, so destroyed before it.
  std::map<std::string, std::unique_ptr<Statement>, std::less<>> cache;
};

namespace {

struct ConninfoFree {
  void operator()(PQconninfoOption* options) const noexcept { PQconninfoFree(options); }
};

std::vector<std::string> split_commas(const char* text)
{
  std::vector<std::string> out;
  if (text == nullptr || *text == '\0') {
    return out;
  }
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    out.emplace_back(rest.substr(0, comma));
    if (comma == std::string_view::npos) {
      return out;
    }
    rest.remove_prefix(comma + 1);
  }
}

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
  return detail::check_result(session, detail::await_result(session, PQsendQuery(session.conn, sql)));
}

// The libpq settings a dead link needs, derived from `io_timeout` (OpenOptions), as keyword and
// value pairs: tcp_user_timeout (unacknowledged data: the kernel gives up after it) and
// keepalives (a silent peer while idle, e.g. a waiter on LISTEN: probed after a third of it,
// then every sixth, three probes), each only when the URL does not set it.
std::vector<std::pair<std::string, std::string>> dead_link_settings(const PQconninfoOption* parsed,
                                                                    std::chrono::milliseconds io_timeout)
{
  std::vector<std::pair<std::string, std::string>> out;
  if (io_timeout.count() <= 0) {
    return out;
  }
  const long long seconds = std::max<long long>(1, io_timeout.count() / 1000);
  const std::pair<std::string_view, std::string> wanted[] = {
      {"tcp_user_timeout", fmt::format("{}", io_timeout.count())},
      {"keepalives", "1"},
      {"keepalives_idle", fmt::format("{}", std::max<long long>(1, seconds / 3))},
      {"keepalives_interval", fmt::format("{}", std::max<long long>(1, seconds / 6))},
      {"keepalives_count", "3"},
  };
  for (const auto& [keyword, value] : wanted) {
    bool set = false;
    for (const PQconninfoOption* option = parsed; option->keyword != nullptr; ++option) {
      set = set || (keyword == option->keyword && option->val != nullptr && *option->val != '\0');
    }
    if (!set) {
      out.emplace_back(keyword, value);
    }
  }
  return out;
}

} // namespace

Connection::Connection(std::unique_ptr<State> state) : m_state(std::move(state)) {}
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;
Connection::~Connection() = default;

Result<Connection> Connection::open(std::string_view url, const OpenOptions& options)
{
  if (!text::is_postgres_location(url)) {
    return make_error(ErrorCode::store_error,
                      "not a PostgreSQL connection string: a postgresql:// URL or libpq keywords (host=... "
                      "dbname=...)");
  }
  auto state = std::make_unique<State>();
  detail::Session& session = state->session;
  session.secrets = detail::url_secrets(url);
  for (std::string& secret : text::conninfo_passwords(url)) {
    session.secrets.push_back(std::move(secret));
  }
  const std::string url_text(url);

  // Parsing first gives a malformed URL its own message, with no connection attempt.
  char* parse_error = nullptr;
  const std::unique_ptr<PQconninfoOption, ConninfoFree> parsed(
      PQconninfoParse(url_text.c_str(), &parse_error));
  if (!parsed) {
    const std::string reason = parse_error != nullptr ? parse_error : "out of memory";
    PQfreemem(parse_error);
    return make_error(ErrorCode::store_error,
                      fmt::format("bad postgresql connection string: {}",
                                  detail::clean_message(session.secrets, reason).reason));
  }
  bool has_timeout = false;
  const char* url_timeout = nullptr;
  HostList host_list;
  bool has_hostaddr = false;
  bool wants_writer = false;
  for (const PQconninfoOption* option = parsed.get(); option->keyword != nullptr; ++option) {
    const std::string_view keyword = option->keyword;
    const std::string_view value = option->val != nullptr ? option->val : "";
    if (keyword == "host") {
      host_list.hosts = split_commas(option->val);
    } else if (keyword == "port") {
      host_list.ports = split_commas(option->val);
    } else if (keyword == "hostaddr") {
      has_hostaddr = !value.empty();
    } else if (keyword == "target_session_attrs") {
      wants_writer = value == "read-write" || value == "primary";
    }
    if (option->val != nullptr && keyword == "password" && *option->val != '\0') {
      session.secrets.emplace_back(option->val);
    }
    if (keyword == "connect_timeout" && option->val != nullptr && *option->val != '\0') {
      has_timeout = true;
      url_timeout = option->val;
    }
  }

  // Later keywords override earlier ones, and the URL (expanded from dbname) overrides those
  // before it: the URL may set connect_timeout and application_name, not client_encoding.
  // The connect timeout is never longer than io_timeout (whole seconds, at least libpq's 2).
  std::chrono::seconds connect_timeout = options.connect_timeout;
  if (options.io_timeout.count() > 0) {
    connect_timeout = std::min(
        connect_timeout, std::max(std::chrono::seconds(2),
                                  std::chrono::duration_cast<std::chrono::seconds>(options.io_timeout)));
  }
  const std::string timeout = fmt::format("{}", connect_timeout.count());
  const auto dead_link = dead_link_settings(parsed.get(), options.io_timeout);
  std::vector<const char*> keywords;
  std::vector<const char*> values;
  if (!has_timeout) {
    keywords.push_back("connect_timeout");
    values.push_back(timeout.c_str());
  }
  for (const auto& [keyword, value] : dead_link) {
    keywords.push_back(keyword.c_str());
    values.push_back(value.c_str());
  }
  keywords.insert(keywords.end(), {"fallback_application_name", "dbname", "client_encoding"});
  values.insert(values.end(), {"mailroom", url_text.c_str(), "UTF8"});
  // Several hosts: the one that last accepted a read-write session first (after the URL, so it
  // overrides the URL's own order).
  const bool remembers = wants_writer && !has_hostaddr && host_list.hosts.size() > 1;
  const HostMemory memory(remembers ? options.host_memory_dir : std::string(), url_text);
  std::optional<HostOrder> order;
  if (const auto recalled = memory.recall()) {
    order = put_first(host_list, *recalled);
  }
  if (order) {
    keywords.push_back("host");
    values.push_back(order->hosts.c_str());
    if (!order->ports.empty()) {
      keywords.push_back("port");
      values.push_back(order->ports.c_str());
    }
  }
  keywords.push_back(nullptr);
  values.push_back(nullptr);
  bool timed_out = false;
  session.conn = connect_quietly(keywords.data(), values.data(),
                                 effective_timeout(url_timeout, connect_timeout), timed_out);
  if (session.conn == nullptr) {
    return make_error(ErrorCode::store_error, "cannot connect to postgresql: out of memory");
  }
  session.where = where(session.conn);
  if (timed_out) {
    Error error =
        make_error(ErrorCode::store_error,
                   fmt::format("cannot connect to postgresql at \"{}\": timeout expired", session.where));
    error.reason = std::string(k_reason_unreachable);
    return error;
  }
  if (PQstatus(session.conn) != CONNECTION_OK) {
    detail::Message message = detail::clean_message(session.secrets, PQerrorMessage(session.conn));
    Error error =
        make_error(ErrorCode::store_error,
                   fmt::format("cannot connect to postgresql at \"{}\": {}", session.where, message.reason),
                   std::move(message.hint));
    if (detail::server_unreachable(message.reason)) {
      error.reason = std::string(k_reason_unreachable);
    }
    return error;
  }
  if (remembers) {
    memory.remember(fmt::format("{}:{}", PQhost(session.conn), PQport(session.conn)));
  }
  session.io_timeout = options.io_timeout;
  session.unnamed_statements = options.transaction_pooler;
  if (options.statement_timeout.count() > 0 && !options.transaction_pooler) {
    const std::string milliseconds = fmt::format("{}", options.statement_timeout.count());
    const char* params[] = {milliseconds.c_str()};
    TRY(detail::check_result(
        session,
        detail::await_result(session, PQsendQueryParams(session.conn,
                                                        "SELECT set_config('statement_timeout', $1, false)",
                                                        1, nullptr, params, nullptr, nullptr, 0))));
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
  std::string name;
  if (!session.unnamed_statements) {
    // Prepared at once, so that SQL that does not compile fails here.
    name = fmt::format("mailroom_{}", ++session.statement_count);
    TRY(detail::check_result(
        session, detail::await_result(session, PQsendPrepare(session.conn, name.c_str(),
                                                             translated.text.c_str(), 0, nullptr))));
  }
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
  // write_if_free: PostgreSQL has no "never wait" (lock_timeout 0 means wait forever), so the
  // smallest lock_timeout, for this transaction only; a busy row then fails with 55P03 (timeout).
  const char* begin = kind == db::TransactionKind::read ? "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
                      : kind == db::TransactionKind::write
                          ? "BEGIN ISOLATION LEVEL SERIALIZABLE"
                          : "BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL lock_timeout = '1ms'";
  TRY(run(session, begin));
  return {};
}

Result<void> Connection::commit()
{
  detail::Session& session = m_state->session;
  detail::ResultPtr result(detail::await_result(session, PQsendQuery(session.conn, "COMMIT")));
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
    PQclear(detail::await_result(session, PQsendQuery(session.conn, "ROLLBACK")));
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
