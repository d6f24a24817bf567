#pragma once

// Internal to internal/pg: the state one connection shares with its statements, and the one
// place where libpq's and the server's failure texts become an Error (one line, no password).

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

struct pg_conn;
struct pg_result;

namespace mailroom::pg::detail {

struct ResultDeleter {
  void operator()(pg_result* result) const noexcept;
};
// An owned PGresult.
using ResultPtr = std::unique_ptr<pg_result, ResultDeleter>;

struct Session {
  pg_conn* conn = nullptr;
  std::string where;                 // "host:port/dbname", for messages
  std::vector<std::string> secrets;  // password texts that no message may show
  std::string last_sqlstate;         // of the last failed command; empty after a success
  std::uint64_t statement_count = 0; // for the names of prepared statements
  // How long any one wait for the server's answer may take (zero: no limit); see io.hpp.
  std::chrono::milliseconds io_timeout{0};
  // Set when an answer did not come within io_timeout and the connection was closed.
  bool expired = false;
  // A transaction-pooling pooler sits in front of the server: unnamed statements only, no
  // session state (OpenOptions::transaction_pooler).
  bool unnamed_statements = false;

  Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  // True while the connection to the server is up (false after it was lost).
  bool connected() const;
};

// A failure text split into the reason (first line) and a hint (the indented lines after it),
// each one line of printable text: every secret replaced by "***", libpq's "connection to server
// ... failed: " and severity ("ERROR:  ", "FATAL:  ") prefixes removed, a leading capital lowered.
struct Message {
  std::string reason;
  std::string hint;
};
Message clean_message(const std::vector<std::string>& secrets, std::string_view text);

// True when a connection attempt that failed with `reason` (clean_message's) found no server
// able to take it now: none listening (refused, no socket file), one starting up, shutting down
// or recovering, a network that did not carry it, or no answer in time. Its Error::reason is then
// k_reason_unreachable, and a command that waits waits for the server (mail/retry.hpp).
bool server_unreachable(std::string_view reason);

// The password texts in a postgresql:// URL, as written and percent-decoded: the user-info
// password (user:PASSWORD@) and any password= query parameter. Found without libpq's parser so
// that a URL libpq rejects is covered too.
std::vector<std::string> url_secrets(std::string_view url);

// The result of a command: the result when it succeeded (PGRES_COMMAND_OK, PGRES_TUPLES_OK,
// PGRES_EMPTY_QUERY), clearing last_sqlstate; else the error (command_error) and last_sqlstate
// set. Takes ownership of `result`, which may be null (libpq could not even send the command).
Result<ResultPtr> check_result(Session& session, pg_result* result);

// The error for a failed command with `result` (may be null): store_error naming session.where
// with the server's primary message and hint; timeout for a statement or lock timeout;
// transient for a serialization failure or deadlock; "lost the connection" when the connection
// is gone ("no answer within N ms" when io_timeout expired). `during` ("commit") is added to
// lost-connection messages, whose Error::reason is then db::k_reason_outcome_unknown. Sets last_sqlstate.
Error command_error(Session& session, const pg_result* result, std::string_view during = {});

} // namespace mailroom::pg::detail
