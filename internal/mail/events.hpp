#pragma once

// The change log a store keeps for live views (contract "HTTP API and the dashboard", "Live
// events"): one row per change to a delivery, written in the same transaction as the change, so
// a change that rolls back leaves no event. Rows carry no subject or body.
//
// What writes which event (the store decides nothing else; docs/store.md, "Events"):
//   mail.sent        one per delivery stored (send, reply, an escalation message, and a sweep's
//                    redelivery): mailbox = the recipient, actor = the sender
//   mail.read        a delivery marked read (read, mark-read, mark-read --all, wait --read, reply
//                    for the replied message, watch's done)
//   mail.unread      a delivery marked unread (mark-unread; a wait --read whose output failed)
//   mail.acked       a delivery acked (ack; reply's acks of the thread; watch's done)
//   mail.archived    a delivery archived (archive, and delete, which stores as an archive)
//   mail.unarchived  a delivery unarchived
//   mail.claimed     a watch claimed a delivery (actor = the watcher)
//   mail.set_aside   a watch set a delivery aside (its attempts were spent)
//   request.state    a delivery's request_state moved by a reply, decline, ask, fail, an answer
//                    to a question, a cancel or a set-aside (actor = who made it move); the
//                    submitted -> working of a read or a claim is told by mail.read/mail.claimed
//   schedule.fired   a schedule's firing was recorded (sent or not): message_id = the message it
//                    sent ("" when none), mailbox = the schedule's owner, actor = the owner
//   schedule.changed a schedule was added, paused, resumed, edited or canceled: message_id = "",
//                    mailbox = the owner, actor = who changed it
//   wake.done        a claimed wake ran (sent or failed): message_id = the message it was for,
//                    mailbox = the recipient woken, actor = "mailroom"
// Nothing else writes one: not a change that changed nothing ("already"), not presence,
// registry changes, import, purge or a lease renewed or released.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mail/message.hpp"

namespace mailroom::mail {

enum class EventType {
  sent,
  read,
  unread,
  acked,
  archived,
  unarchived,
  claimed,
  set_aside,
  request_state,
  schedule_fired,
  schedule_changed,
  wake_done,
};

// "mail.sent", "mail.read", … (the contract's names).
std::string_view to_string(EventType type);
// The type named `name`; nullopt for any other text.
std::optional<EventType> parse_event_type(std::string_view name);

// One event as the store keeps it.
struct Event {
  std::int64_t seq = 0; // strictly increasing in commit order; gaps where a change rolled back
  UnixMillis at = 0;    // the store's clock when the change was made
  EventType type = EventType::sent;
  MessageId message_id;
  Mailbox mailbox; // whose delivery changed
  Mailbox actor;   // who changed it (the sender for mail.sent; an operator acting for the mailbox)
};

// An event before the store numbers and stamps it.
struct EventDraft {
  EventType type = EventType::sent;
  MessageId message_id;
  Mailbox mailbox;
  Mailbox actor;
};

// Events after a seq, oldest first.
struct EventsPage {
  std::vector<Event> events;
  // The smallest seq the store may still hold: every event below it was pruned. A reader that
  // last saw a seq below oldest_kept - 1 missed events (the stream's `event: reset`).
  std::int64_t oldest_kept = 1;
  // The newest seq committed (0 when there has never been an event): a reader that wants only
  // what happens from now on starts after it.
  std::int64_t newest = 0;
};

// How long events are kept: whichever limit removes more (contract: 7 days or 100,000 rows).
struct EventRetention {
  std::int64_t max_age_ms = 7LL * 24 * 60 * 60 * 1000;
  std::int64_t max_rows = 100000;
};

// What one page of events may hold at most.
inline constexpr std::size_t k_max_events_page = 1000;

} // namespace mailroom::mail
