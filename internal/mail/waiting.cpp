#include "mail/waiting.hpp"

#include <algorithm>

#include "util/sleep.hpp"

namespace mailroom::mail {

namespace {

// Inbox order: priority, then oldest first; ties keep the provider's order (arrival).
void sort_inbox_order(std::vector<Message>& messages)
{
  std::stable_sort(messages.begin(), messages.end(), [](const Message& a, const Message& b) {
    if (a.priority != b.priority) {
      return a.priority < b.priority;
    }
    return a.created_at < b.created_at;
  });
}

bool filters_match(const Message& message, const WaitQuery& query)
{
  if (!query.types.empty() && std::find(query.types.begin(), query.types.end(), message.type) == query.types.end()) {
    return false;
  }
  if (query.from && message.from != *query.from) {
    return false;
  }
  return !query.thread || message.thread_id == *query.thread;
}

// Candidates for `query`, not yet filtered by matches().
Result<std::vector<Message>> candidates(Provider& provider, const WaitQuery& query)
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
  if (!list.filters.any()) {
    list.limit = 1; // the unread inbox's first message is the match
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
    return message.reply_to == query.reply_to;
  }
  return !message.state->read && !message.state->archived;
}

Result<std::optional<Message>> find_waiting(Provider& provider, const WaitQuery& query)
{
  TRY_ASSIGN(std::vector<Message> found, candidates(provider, query));
  found.erase(std::remove_if(found.begin(), found.end(), [&](const Message& m) { return !matches(m, query); }),
              found.end());
  if (found.empty()) {
    return std::optional<Message>();
  }
  sort_inbox_order(found);
  Message first = std::move(found.front());
  if (!first.body_complete) {
    TRY_ASSIGN(first, provider.get(query.mailbox, first.id));
  }
  return std::optional<Message>(std::move(first));
}

Result<WaitOutcome> wait_for(Provider& provider, const WaitQuery& query,
                             std::optional<std::chrono::steady_clock::time_point> deadline, int interrupt_fd,
                             Millis poll_interval_ms)
{
  using Clock = std::chrono::steady_clock;
  // Armed before the first look: a commit after it wakes the first wait below.
  TRY_ASSIGN(std::unique_ptr<ChangeSignal> signal, provider.change_signal());
  while (true) {
    TRY_ASSIGN(std::optional<Message> found, find_waiting(provider, query));
    if (found) {
      return WaitOutcome{WaitEnd::found, std::move(found)};
    }
    const auto now = Clock::now();
    if (deadline && now >= *deadline) {
      return WaitOutcome{WaitEnd::timed_out, std::nullopt};
    }
    if (signal) {
      TRY_ASSIGN(const WakeReason why, signal->wait(deadline.value_or(Clock::time_point::max()), interrupt_fd));
      if (why == WakeReason::interrupted) {
        return WaitOutcome{WaitEnd::interrupted, std::nullopt};
      }
      continue; // changed, or the deadline: look once more
    }
    auto until = now + std::chrono::milliseconds(poll_interval_ms);
    if (deadline) {
      until = std::min(until, *deadline);
    }
    if (!util::sleep_until(until, interrupt_fd)) {
      return WaitOutcome{WaitEnd::interrupted, std::nullopt};
    }
  }
}

} // namespace mailroom::mail
