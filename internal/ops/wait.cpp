#include "wait.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "filters.hpp"
#include "mail/duration.hpp"
#include "presence.hpp"
#include "read_names.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "schema.hpp"
#include "store_open.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

namespace {

mail::Message as_read(mail::Message message)
{
  if (message.state) {
    message.state->read = true; // a sender who is not a recipient has no state and keeps none
  }
  return message;
}

// The keys every wait result has: "timed_out" (the Round 2 boolean), "outcome" and "notice".
nlohmann::json wait_keys(const WaitResult& result)
{
  const mail::WaitOutcome& outcome = result.outcome;
  const bool found = outcome.end == mail::WaitEnd::found;
  nlohmann::json keys = nlohmann::json::object();
  keys["timed_out"] = outcome.end == mail::WaitEnd::timed_out;
  keys["outcome"] = std::string(mail::outcome_name(outcome.end, result.reply_to));
  if (outcome.notice) {
    keys["notice"] =
        render::message_to_json(found && result.read ? as_read(*outcome.notice) : *outcome.notice);
  } else {
    keys["notice"] = nullptr;
  }
  return keys;
}

nlohmann::json shown(const WaitResult& result)
{
  if (result.outcome.end != mail::WaitEnd::found || !result.outcome.message) {
    return nullptr;
  }
  return render::message_to_json(result.read ? as_read(*result.outcome.message) : *result.outcome.message);
}

// A pipe that becomes readable when `stop` is requested, for a wait that has no interrupt fd.
class StopPipe {
public:
  explicit StopPipe(const std::stop_token& stop)
  {
    if (!stop.stop_possible() || ::pipe2(m_fds, O_CLOEXEC) != 0) {
      return;
    }
    m_callback.emplace(stop, Wake{m_fds[1]});
  }
  ~StopPipe()
  {
    m_callback.reset();
    for (const int fd : m_fds) {
      if (fd >= 0) {
        ::close(fd);
      }
    }
  }
  StopPipe(const StopPipe&) = delete;
  StopPipe& operator=(const StopPipe&) = delete;
  int fd() const { return m_fds[0]; }

private:
  struct Wake {
    int fd;
    void operator()() const { (void)!::write(fd, "x", 1); }
  };
  int m_fds[2] = {-1, -1};
  std::optional<std::stop_callback<Wake>> m_callback;
};

Error stopped_error()
{
  return make_error(ErrorCode::timeout, "the wait was cancelled; nothing was marked read");
}

Result<mail::WaitQuery::Cursor> cursor_of(Session& session, mail::Provider& provider,
                                          const std::string& typed)
{
  TRY_ASSIGN(const mail::MessageId id, mail::resolve_id(provider, typed));
  TRY_ASSIGN(const mail::Message message, provider.get(session.me.name, id));
  return mail::WaitQuery::Cursor{message.created_at, message.id};
}

} // namespace

Result<std::vector<std::string>> resolve_types(const Session& session, const std::vector<std::string>& types)
{
  std::vector<std::string> out;
  for (const std::string& name : types) {
    TRY_ASSIGN(mail::MessageType type, session.policy.types.resolve(name));
    out.push_back(type.name);
  }
  return out;
}

Result<WaitResult> wait(Session& session, const WaitRequest& request, const WaitDeliver& deliver)
{
  mail::WaitQuery query;
  query.mailbox = session.me.name;
  TRY_ASSIGN(query.types, resolve_types(session, request.types));
  TRY_ASSIGN(query.from, mailbox_flag(request.from, "--from"));
  if (request.since) {
    TRY_ASSIGN(query.since, mail::parse_time_or_age(*request.since, session.clock.now(), "--since"));
  }
  WaitResult result;
  result.mailbox = session.me.name;
  result.read = request.read;
  const StopPipe stop(session.stop);
  const int interrupt_fd = request.interrupt_fd >= 0 ? request.interrupt_fd : stop.fd();
  // A store that is not up yet (a server restarting) is waited for, within the deadline.
  TRY_ASSIGN(const StoreOpen opened, open_store_when_up(session, request.deadline, interrupt_fd));
  if (opened.interrupted) {
    result.outcome = mail::WaitOutcome{mail::WaitEnd::interrupted, std::nullopt, std::nullopt};
    return result;
  }
  mail::Provider* provider = opened.provider;
  if (query.from && *query.from != session.me.name) {
    TRY(check_read_name(session, *provider, *query.from, "--from")); // a typo would wait forever
  }
  if (request.thread) {
    TRY_ASSIGN(query.thread, resolve_thread(session, *provider, *request.thread));
  }
  if (request.reply_to) {
    TRY_ASSIGN(query.reply_to, mail::resolve_id(*provider, *request.reply_to));
  }
  if (request.after) {
    TRY_ASSIGN(query.after, cursor_of(session, *provider, *request.after));
  }
  result.reply_to = query.reply_to.has_value();
  result.request = query.reply_to;

  // What the store hands over to be marked read is written first; a stopped wait writes nothing.
  const auto deliver_as = [&](mail::WaitOutcome outcome) {
    return [&, outcome](const mail::Message& message) -> Result<void> {
      if (session.stop.stop_requested()) {
        return stopped_error();
      }
      WaitResult taken = result;
      taken.outcome = outcome;
      taken.outcome.message = message;
      return deliver(taken);
    };
  };
  mail::WaitSettings settings;
  settings.on_retry = [&session](const Error& error, mail::Millis pause_ms) {
    session.tell("store_retry", fmt::format("waiting for mail: {}; trying again in {}", error.message,
                                            mail::format_duration(pause_ms)));
  };
  // A pooled connection cannot LISTEN: the wait polls, and says so once (contract "Poolers").
  settings.on_degraded = [&session](const std::string& why) { session.tell(mail::k_no_listen_warning, why); };
  // An idle waiter stays seen: a beat every presence_after / 3 (its start was recorded by the surface).
  if (session.presence) {
    settings.heartbeat =
        mail::IdleHeartbeat([&session]() { record_presence(session, 0); },
                            mail::heartbeat_interval(session.policy.presence_after), session.clock);
  }
  // Without reply_to, a read takes the message once: of several waiters one gets it.
  const bool take = request.read && !result.reply_to;
  if (take) {
    settings.take = [&](const mail::Message& found) -> Result<bool> {
      const mail::DeliverFn on_take = deliver_as(mail::WaitOutcome{mail::WaitEnd::found, found, found});
      TRY_ASSIGN(const std::optional<mail::Message> taken,
                 provider->take(session.actor(), found.id, on_take));
      return taken.has_value();
    };
  }
  TRY_ASSIGN(result.outcome, mail::wait_for(*provider, query, request.deadline, interrupt_fd, settings));
  if (result.outcome.end != mail::WaitEnd::found || take) {
    return result; // a taken message was written when taken
  }
  if (request.read) {
    // A reply (reply_to) is read whether or not another marked it.
    const mail::DeliverFn on_read = deliver_as(result.outcome);
    TRY_ASSIGN(result.outcome.message, provider->read(session.actor(), result.outcome.message->id, on_read));
    return result;
  }
  TRY(deliver(result));
  return result;
}

nlohmann::json to_json(const WaitResult& result)
{
  nlohmann::json doc = render::json_document();
  doc.update(wait_keys(result));
  doc["message"] = shown(result);
  return doc;
}

text::DisplayText to_text(const WaitResult& result, const render::Style& /*style*/)
{
  if (ends_with_answer(result.outcome.end) && result.outcome.notice) {
    return render::render_message_view(*result.outcome.notice); // the question, decline, failure or cancel
  }
  if (result.outcome.end != mail::WaitEnd::found || !result.outcome.message) {
    return {};
  }
  return render::render_message_view(result.read ? as_read(*result.outcome.message)
                                                 : *result.outcome.message);
}

nlohmann::json wait_output_schema()
{
  using namespace schema;
  return document({{"message", nullable(schema::message())},
                   {"timed_out", boolean()},
                   {"outcome", string()},
                   {"notice", nullable(schema::message())}});
}

nlohmann::json to_json(const SendResult& sent, const WaitResult& waited)
{
  nlohmann::json doc = to_json(sent);
  doc.update(wait_keys(waited));
  doc["reply"] = shown(waited);
  return doc;
}

nlohmann::json send_wait_output_schema()
{
  nlohmann::json doc = send_output_schema();
  const nlohmann::json waited = wait_output_schema();
  for (const char* key : {"timed_out", "outcome", "notice"}) {
    doc["properties"][key] = waited["properties"][key];
    doc["required"].push_back(key);
  }
  doc["properties"]["reply"] = waited["properties"]["message"];
  doc["required"].push_back("reply");
  return doc;
}

bool ends_with_answer(mail::WaitEnd end)
{
  return end == mail::WaitEnd::input_required || end == mail::WaitEnd::rejected ||
         end == mail::WaitEnd::failed || end == mail::WaitEnd::canceled;
}

std::optional<Error> request_end_error(const WaitResult& result, bool stays_sent)
{
  const std::string request = result.request.value_or("");
  const std::optional<mail::Message>& notice = result.outcome.notice;
  const auto by = [&](std::string_view what) {
    return notice ? fmt::format("{} by {}", what, text::cap_for_echo(notice->from)) : std::string(what);
  };
  std::string why;
  switch (result.outcome.end) {
  case mail::WaitEnd::input_required: {
    const std::string question = notice ? notice->id : std::string("<question-id>");
    return make_error(
        ErrorCode::timeout,
        fmt::format("no reply to {} yet: {} needs input first", request,
                    notice ? text::cap_for_echo(notice->from) : std::string("its recipient")),
        fmt::format("answer the question with: mailroom reply {} <answer>; then wait again with: mailroom "
                    "wait --reply-to {}",
                    question, request));
  }
  case mail::WaitEnd::rejected:
    why = by("it was declined");
    break;
  case mail::WaitEnd::failed:
    why = by("it failed");
    break;
  case mail::WaitEnd::canceled:
    why = by("it was canceled");
    break;
  case mail::WaitEnd::set_aside:
    why = "it was set aside by its recipient's watcher";
    break;
  case mail::WaitEnd::escalated:
    why = "it was escalated: its recipient has not acknowledged it";
    break;
  case mail::WaitEnd::expired:
    why = "it expired";
    break;
  default:
    return std::nullopt;
  }
  std::string hint = fmt::format("see each recipient with: mailroom status {}", request);
  if (result.outcome.notice) {
    hint += fmt::format(" (and the notice {})", result.outcome.notice->id);
  }
  return make_error(ErrorCode::timeout,
                    fmt::format("no reply will come to {}: {}{}", request, why,
                                stays_sent ? "; the message stays sent" : ""),
                    hint);
}

} // namespace mailroom::ops
