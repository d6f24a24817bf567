// The GET endpoints that answer one operation's --json object: team, peers, mailboxes, a message,
// a thread, a status, traces, a trace, search. Views change nothing and record no presence.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "endpoints.hpp"
#include "mail/duration.hpp"
#include "ops/agents.hpp"
#include "ops/arguments.hpp"
#include "ops/peek.hpp"
#include "ops/search.hpp"
#include "ops/thread.hpp"
#include "ops/traces.hpp"
#include "ops/views.hpp"

namespace mailroom::http {

namespace {

using nlohmann::json;

// Runs `work` on a thread of its own and waits at most `deadline_ms` for it: past that the answer
// is a timeout (504) and the work ends unobserved, giving its connection back when it is done.
Result<json> within(Background& background, mail::Millis deadline_ms, std::function<Result<json>()> work)
{
  struct Pending {
    std::mutex mutex;
    std::condition_variable done;
    std::optional<Result<json>> result;
  };
  auto pending = std::make_shared<Pending>();
  background.started();
  std::thread([pending, &background, work = std::move(work)]() {
    Result<json> result = work();
    {
      std::lock_guard lock(pending->mutex);
      pending->result = std::move(result);
      pending->done.notify_all();
    }
    background.finished(); // the last use of the server's state
  }).detach();
  std::unique_lock lock(pending->mutex);
  if (!pending->done.wait_for(lock, std::chrono::milliseconds(deadline_ms),
                              [&pending]() { return pending->result.has_value(); })) {
    return make_error(ErrorCode::timeout,
                      fmt::format("the search took longer than {}", mail::format_duration(deadline_ms)),
                      "narrow it: more words, a mailbox, a limit");
  }
  return std::move(*pending->result);
}

} // namespace

json search_args()
{
  return ops::args::input(
      json{{"q", ops::args::string("the words to search for")},
           {"mailbox", ops::args::string("whose mail: a mailbox, or * for every mailbox's")},
           {"limit", ops::args::string("at most this many results")}});
}

Result<json> search(Call& call)
{
  const std::optional<std::string> q = query(call, "q");
  if (!q || q->empty()) {
    return make_error(ErrorCode::usage, "search needs ?q=WORDS");
  }
  ops::SearchRequest request;
  request.words = {*q};
  config::Identity me = call.env.me;
  if (const auto mailbox = query(call, "mailbox"); mailbox && *mailbox == ops::k_every_mailbox) {
    request.mailbox = std::string(ops::k_every_mailbox);
  } else {
    TRY_ASSIGN(me, viewer(call));
  }
  TRY_ASSIGN(request.limit.limit, query_count(call, "limit"));
  ApiEnv& env = call.env;
  // Past its deadline the search goes on after the request ended: it keeps copies, not the call.
  return within(env.background, env.search_deadline_ms, [&env, me, request, method = call.request.method]() {
    return with_session(env, me, method, [&request](ops::Session& session) -> Result<json> {
      TRY_ASSIGN(const ops::SearchResult result, ops::search(session, request));
      return ops::to_json(result);
    });
  });
}

Result<json> team(Call& call)
{
  return with_session(call.env, call.env.me, call.request.method, [](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::TeamResult result, ops::team(session, ops::TeamRequest{}));
    return ops::to_json(result);
  });
}

Result<json> peers(Call& call)
{
  if (!query(call, "mailbox")) {
    return with_session(call.env, call.env.me, call.request.method,
                        [](ops::Session& session) -> Result<json> {
                          TRY_ASSIGN(const ops::PairsResult result, ops::pairs(session, ops::PairsRequest{}));
                          return ops::to_json(result);
                        });
  }
  TRY_ASSIGN(const config::Identity me, viewer(call));
  return with_session(call.env, me, call.request.method, [](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::PeersResult result, ops::peers(session, ops::PeersRequest{}));
    return ops::to_json(result);
  });
}

Result<json> mailboxes(Call& call)
{
  return with_session(call.env, call.env.me, call.request.method, [](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::AgentsResult result, ops::agents(session, ops::AgentsRequest{}));
    return ops::to_json(result);
  });
}

Result<json> message(Call& call)
{
  TRY_ASSIGN(const config::Identity me, viewer(call));
  const std::string& id = call.route.param("id");
  return with_session(call.env, me, call.request.method, [&id](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::PeekResult result, ops::peek(session, ops::PeekRequest{id}));
    return ops::to_json(result);
  });
}

Result<json> thread(Call& call)
{
  TRY_ASSIGN(const config::Identity me, viewer(call));
  const std::string& id = call.route.param("id");
  return with_session(call.env, me, call.request.method, [&id](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::ThreadResult result, ops::thread(session, ops::ThreadRequest{id}));
    return ops::to_json(result);
  });
}

Result<json> status(Call& call)
{
  const std::string& id = call.route.param("id");
  return with_session(
      call.env, call.env.me, call.request.method, [&id](ops::Session& session) -> Result<json> {
        TRY_ASSIGN(const ops::StatusResult result, ops::status(session, ops::StatusRequest{id}));
        return ops::to_json(result);
      });
}

Result<json> trace(Call& call)
{
  TRY_ASSIGN(const config::Identity me, viewer(call));
  const std::string& id = call.route.param("id");
  return with_session(call.env, me, call.request.method, [&id](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::TraceResult result, ops::trace(session, ops::TraceRequest{id}));
    return ops::to_json(result);
  });
}

json traces_args()
{
  return ops::args::input(json{{"limit", ops::args::string("at most this many traces (1-1000)")}});
}

Result<json> traces(Call& call)
{
  TRY_ASSIGN(const std::optional<std::size_t> limit, query_count(call, "limit"));
  ops::RecentTracesRequest request;
  if (limit) {
    request.limit = static_cast<std::int64_t>(*limit);
  }
  return with_session(
      call.env, call.env.me, call.request.method, [&request](ops::Session& session) -> Result<json> {
        TRY_ASSIGN(const ops::RecentTracesResult result, ops::recent_traces(session, request));
        return ops::to_json(result);
      });
}

} // namespace mailroom::http
