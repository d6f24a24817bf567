#include "mail/waiting.hpp"

#include <algorithm>
#include <utility>

#include "mail/request.hpp"
#include "mail/retry.hpp"
#include "util/sleep.hpp"

namespace mailroom::mail {

namespace {

// Arrival order, for a cursor: created_at, then id (the cursor's own tie-break).
bool arrived_before(const Message& a, const Message& b)
{
  return a.created_at != b.created_at ? a.created_at < b.created_at : a.id < b.id;
}

bool after_cursor(const Message& message, const WaitQuery::Cursor& cursor)
{
  return message.created_at != cursor.created_at ? message.created_at > cursor.created_at
                                                 : message.id > cursor.id;
}

bool filters_match(const Message& message, const WaitQuery& query)
{
  if (query.since && message.created_at < *query.since) {
    return false;
  }
  if (query.after && !after_cursor(message, *query.after)) {
    return false;
  }
  if (!query.types.empty() &&
      std::find(query.types.begin(), query.types.end(), message.type) == query.types.end()) {
    return false;
  }
  if (query.from && message.from != *query.from) {
    return false;
  }
  return !query.thread || message.thread_id == *query.thread;
}

// Candidates for `query`, not yet filtered by matches(): enough of them to pass over `skipped`.
Result<std::vector<Message>> candidates(Provider& provider, const WaitQuery& query, std::size_t skipped)
{
  if (query.reply_to) {
    // A reply lives in its original's thread; that view is open and every provider has it.
    TRY_ASSIGN(ThreadResult thread, provider.thread(query.mailbox, *query.reply_to));
    return std::move(thread.messages);
  }
  ListQuery list;
  list.mailbox = query.mailbox;
  list.box = Box::inbox;
  list.body_bytes = 0; // the match is loaded whole afterwards
  list.filters.from = query.from;
  list.filters.types = query.types;
  list.filters.thread = query.thread;
  list.filters.since = query.since;
  if (query.after && (!list.filters.since || *list.filters.since < query.after->created_at)) {
    list.filters.since = query.after->created_at;
  }
  if (!list.filters.any()) {
    list.limit = 1 + skipped; // the unread inbox's first message not passed over is the match
  }
  auto listed = provider.list(list);
  if (!listed.ok() && listed.error().code == ErrorCode::unsupported && list.filters.any()) {
    // A provider without list filters: the whole unread inbox, filtered here.
    list.filters = Filters{};
    listed = provider.list(list);
  }
  TRY(listed);
  std::vector<Message> out;
  for (ListedMessage& item : listed->messages) {
    out.push_back(std::move(item.message));
  }
  return out;
}

} // namespace

bool matches(const Message& message, const WaitQuery& query)
{
  if (!message.state || message.expired || !filters_match(message, query)) {
    return false;
  }
  if (query.reply_to) {
    return message.reply_to == query.reply_to && !is_request_notice(message.type);
  }
  return message.unread();
}

Result<std::optional<Message>> find_waiting(Provider& provider, const WaitQuery& query,
                                            const std::vector<MessageId>& skip)
{
  TRY_ASSIGN(std::vector<Message> found, candidates(provider, query, skip.size()));
  found.erase(std::remove_if(found.begin(), found.end(),
                             [&](const Message& m) {
                               return !matches(m, query) ||
                                      std::find(skip.begin(), skip.end(), m.id) != skip.end();
                             }),
              found.end());
  if (found.empty()) {
    return std::optional<Message>();
  }
  if (query.after) {
    std::stable_sort(found.begin(), found.end(), arrived_before);
  } else {
    sort_inbox(found);
  }
  Message first = std::move(found.front());
  if (!first.body_complete) {
    TRY_ASSIGN(first, provider.get(query.mailbox, first.id));
  }
  return std::optional<Message>(std::move(first));
}

std::string_view outcome_name(WaitEnd end, bool reply_to)
{
  switch (end) {
  case WaitEnd::found:
    return reply_to ? "replied" : "found";
  case WaitEnd::timed_out:
    return "timed_out";
  case WaitEnd::interrupted:
    return "interrupted";
  case WaitEnd::input_required:
    return "input_required";
  case WaitEnd::rejected:
    return "rejected";
  case WaitEnd::failed:
    return "failed";
  case WaitEnd::set_aside:
    return "set_aside";
  case WaitEnd::canceled:
    return "canceled";
  case WaitEnd::escalated:
    return "escalated";
  case WaitEnd::expired:
    return "expired";
  }
  return "timed_out";
}

namespace {

WaitEnd wait_end(RequestEnd end)
{
  switch (end) {
  case RequestEnd::input_required:
    return WaitEnd::input_required;
  case RequestEnd::rejected:
    return WaitEnd::rejected;
  case RequestEnd::failed:
    return WaitEnd::failed;
  case RequestEnd::set_aside:
    return WaitEnd::set_aside;
  case RequestEnd::canceled:
    return WaitEnd::canceled;
  case RequestEnd::escalated:
    return WaitEnd::escalated;
  case RequestEnd::expired:
    return WaitEnd::expired;
  }
  return WaitEnd::set_aside;
}

// With reply_to: how the request ended without a reply, with the escalation that says so, or
// nullopt while a reply can still come. `views` is cleared for a provider without status, which
// is then never asked again.
Result<std::optional<WaitOutcome>> ended_request(Provider& provider, const WaitQuery& query, bool& views)
{
  if (!query.reply_to || !views) {
    return std::optional<WaitOutcome>();
  }
  Views* facet = provider.facets().views;
  if (facet == nullptr) {
    views = false;
    return std::optional<WaitOutcome>();
  }
  auto status = facet->status(*query.reply_to);
  if (!status.ok() && status.error().code == ErrorCode::unsupported) {
    views = false;
    return std::optional<WaitOutcome>();
  }
  TRY(status);
  std::vector<Message> trace;
  auto traced = facet->trace(query.mailbox, status->message.trace.trace_id);
  if (traced.ok()) {
    trace = std::move(traced->messages);
  } else if (traced.error().code != ErrorCode::unsupported) {
    return std::move(traced).error();
  }
  std::optional<RequestEnded> ended = request_end(*status, trace);
  if (!ended) {
    return std::optional<WaitOutcome>();
  }
  WaitOutcome outcome{wait_end(ended->end), std::nullopt, std::move(ended->notice)};
  return std::optional<WaitOutcome>(std::move(outcome));
}

// How long a request found set aside waits for the watcher's escalation about it.
constexpr std::chrono::seconds k_set_aside_notice_grace{2};

} // namespace

Millis heartbeat_interval(Millis presence_after)
{
  return std::max<Millis>(k_second_ms, presence_after / 3);
}

IdleHeartbeat::IdleHeartbeat(std::function<void()> beat, Millis interval_ms, const Clock& clock)
    : m_beat(std::move(beat)), m_interval_ms(interval_ms), m_clock(&clock), m_last(clock.now())
{
}

void IdleHeartbeat::beat_if_due()
{
  if (m_beat && m_interval_ms > 0 && m_clock->now() - m_last >= m_interval_ms) {
    m_beat();
    m_last = m_clock->now();
  }
}

std::chrono::steady_clock::time_point IdleHeartbeat::cap(std::chrono::steady_clock::time_point until) const
{
  if (!m_beat || m_interval_ms <= 0) {
    return until;
  }
  const Millis left = std::max<Millis>(0, m_last + m_interval_ms - m_clock->now());
  return std::min(until, std::chrono::steady_clock::now() + std::chrono::milliseconds(left));
}

Result<WaitOutcome> wait_for(Provider& provider, const WaitQuery& query,
                             std::optional<std::chrono::steady_clock::time_point> deadline, int interrupt_fd,
                             const WaitSettings& settings)
{
  using Steady = std::chrono::steady_clock;
  util::RealPause real_pause;
  util::Pause& pause = settings.pause != nullptr ? *settings.pause : real_pause;
  std::unique_ptr<ChangeSignal> signal;
  bool armed = false;
  bool views = true; // cleared when the provider has no status to tell how a request ended
  Millis backoff = 0;
  // Matches lost to another taker (read by it, or held while it writes them): passed over until
  // the next wake. A provider whose list lags behind its marks lists a lost one again.
  std::vector<MessageId> held;
  IdleHeartbeat beat = settings.heartbeat;
  std::optional<Steady::time_point> notice_by; // set aside without a notice: until when to wait for it
  while (true) {
    // One round: arm (once), look, take, sleep until a change. A store failure anywhere in it
    // that may pass is ridden out below, and the round starts again.
    auto round = [&]() -> Result<std::optional<WaitOutcome>> {
      if (!armed) {
        // Armed before the first look: a commit after it wakes the first wait below.
        TRY_ASSIGN(signal, mail::change_signal(provider));
        armed = true;
        if (signal && settings.on_degraded && !signal->degraded().empty()) {
          settings.on_degraded(signal->degraded());
        }
      }
      TRY_ASSIGN(std::optional<Message> found, find_waiting(provider, query, held));
      backoff = 0;
      if (found) {
        bool got = true;
        if (settings.take) {
          TRY_ASSIGN(got, settings.take(*found));
        }
        if (got) {
          std::optional<Message> notice = found;
          return std::optional(WaitOutcome{WaitEnd::found, std::move(found), std::move(notice)});
        }
        held.push_back(found->id);
        return std::optional<WaitOutcome>(); // another waiter has it: the next match, at once
      }
      TRY_ASSIGN(std::optional<WaitOutcome> ended, ended_request(provider, query, views));
      if (ended && ended->end == WaitEnd::set_aside && !ended->notice) {
        // A watcher sends its escalation right after it sets the delivery aside (or holds it back
        // while an earlier one is unread): a short grace lets it arrive and be the notice.
        notice_by = notice_by.value_or(Steady::now() + k_set_aside_notice_grace);
        if (Steady::now() < *notice_by) {
          ended.reset();
        }
      }
      if (ended) {
        return ended;
      }
      const auto now = Steady::now();
      if (deadline && now >= *deadline) {
        return std::optional(WaitOutcome{WaitEnd::timed_out, std::nullopt, std::nullopt});
      }
      beat.beat_if_due();
      // A held match is looked at again soon: its holder may be gone, and no change says so.
      const auto recheck =
          held.empty() ? Steady::time_point::max() : now + std::chrono::milliseconds(k_held_recheck_ms);
      if (signal) {
        TRY_ASSIGN(const WakeReason why,
                   signal->wait(beat.cap(std::min({deadline.value_or(Steady::time_point::max()),
                                                   notice_by.value_or(Steady::time_point::max()), recheck})),
                                interrupt_fd));
        held.clear();
        if (why == WakeReason::interrupted) {
          return std::optional(WaitOutcome{WaitEnd::interrupted, std::nullopt, std::nullopt});
        }
        return std::optional<WaitOutcome>(); // changed, or the deadline: look once more
      }
      auto until = beat.cap(now + std::chrono::milliseconds(settings.poll_interval_ms));
      if (notice_by) {
        until = std::min(until, *notice_by);
      }
      if (deadline) {
        until = std::min(until, *deadline);
      }
      until = std::min(until, recheck);
      if (!util::sleep_until(until, interrupt_fd)) {
        return std::optional(WaitOutcome{WaitEnd::interrupted, std::nullopt, std::nullopt});
      }
      held.clear();
      return std::optional<WaitOutcome>();
    };
    auto ended = round();
    if (ended.ok()) {
      if (*ended) {
        return std::move(**ended);
      }
      continue;
    }
    if (!store_may_recover(ended.error())) {
      return std::move(ended).error();
    }
    backoff = next_store_retry(backoff);
    auto length = std::chrono::milliseconds(backoff);
    if (deadline) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Steady::now());
      if (left <= std::chrono::milliseconds(0)) {
        return std::move(ended).error(); // the store did not come back in time
      }
      length = std::min(length, left);
    }
    if (settings.on_retry) {
      settings.on_retry(ended.error(), length.count());
    }
    if (!pause.sleep_for(length, interrupt_fd)) {
      return WaitOutcome{WaitEnd::interrupted, std::nullopt, std::nullopt};
    }
  }
}

} // namespace mailroom::mail
