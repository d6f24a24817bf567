#pragma once

// The stdio loop of `mailroom mcp`: reads one message per line, answers cheap protocol methods on
// the reading thread and runs everything else on a bounded pool (contract "MCP server",
// "Lifecycle"): at most `max_running` at once and `max_waiting` queued; beyond that -32000
// `server busy`. `notifications/cancelled` stops a request and nothing more is sent for it. At
// end of input every request in flight is cancelled and run() returns within about a second.

#include <chrono>
#include <cstddef>
#include <functional>
#include <stop_token>
#include <string>

#include <nlohmann/json.hpp>

#include "mcp/jsonrpc.hpp"

namespace mailroom::mcp {

// What the protocol layer answers: a result, or a JSON-RPC error.
struct Reply {
  bool is_error = false;
  int code = 0;
  std::string message;
  json data;   // error data (null: none)
  json result; // when !is_error
  // The answer was already written through the request's Respond: nothing more is sent.
  bool answered = false;

  static Reply ok(json result) { return Reply{false, 0, {}, nullptr, std::move(result)}; }
  static Reply error(int code, std::string message, json data = nullptr)
  {
    return Reply{true, code, std::move(message), std::move(data), nullptr};
  }
  static Reply already_answered()
  {
    Reply reply;
    reply.answered = true;
    return reply;
  }
};

// Writes a request's answer before its handler returns, atomically with the cancellation check:
// true when written, false when the request was cancelled first (nothing is ever written for it
// then). Empty on the reading thread.
using Respond = std::function<bool(Reply reply)>;

// How the loop hands messages to the protocol layer.
struct Handler {
  // True when `method` must run on the pool (it may touch the store or wait).
  std::function<bool(const std::string& method)> runs_on_pool;
  // Answers a request. Called on the reading thread or a pool thread; `stop` is requested when
  // the client cancels it or input ends. It may answer early through `respond` (then it returns
  // Reply::already_answered()); on the reading thread, Reply::already_answered() means the handler
  // answers later itself, through attach's writer (such a request is not among those in flight).
  std::function<Reply(const Incoming& request, std::stop_token stop, const Respond& respond)> request;
  // A notification other than notifications/cancelled (never answered).
  std::function<void(const Incoming& notification)> notification;
  // Optional. Given, before the first message is read, the function that writes one message
  // (a notification, or the late answer of a request kept open) serialized with every answer.
  std::function<void(std::function<void(const json& message)> write)> attach;
  // Optional. notifications/cancelled for `id`, after the pool's own cancellation: a request the
  // handler keeps open itself (a listen) ends, and nothing more is written for it.
  std::function<void(const json& id)> cancelled;
  // Optional. End of input: stop writing and end what attach started; true when it ended within
  // `within` (false: serve() leaves without waiting, as for a request that does not end).
  std::function<bool(std::chrono::milliseconds within)> detach;
};

struct ServerLimits {
  std::size_t max_running = 16;
  std::size_t max_waiting = 256;
  std::size_t max_line_bytes = k_max_line_bytes;
};

// Serves `handler` on `in_fd`/`out_fd` until end of input. `log` receives one line per
// diagnostic (stderr). Returns the exit code (0) once every request has ended; when one has not
// ended 800 ms after end of input, ends the process itself with exit 0.
int serve(const Handler& handler, int in_fd, int out_fd, const ServerLimits& limits,
          const std::function<void(const std::string&)>& log);

} // namespace mailroom::mcp
