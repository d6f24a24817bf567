#pragma once

// The `trace` view: the messages of one trace as a tree (contract "Traces", "The team, as the
// operator sees it").

#include <map>
#include <vector>

#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "text/display.hpp"

namespace mailroom::render {

// Each message's delivery records, by message id (mail::TraceResult::deliveries).
using TraceDeliveries = std::map<mail::MessageId, std::vector<mail::DeliveryStatus>>;

// One line per message, a child under its parent (the message whose span_id is its
// parent_span_id), siblings and roots oldest first, drawn with ├─ and └─ (│ continues a level):
//   <id>  <time>  <from> → <to>  <type>  <subject>[ (expired)]
//   │    <recipient>: read +1.4s, acked +2s, 1 failed handler attempt
//   └─ <id>  <time>  <from> → <to>  <type>  <subject>  +<time since its parent>
// Under each message, one line per recipient in `deliveries` (none when absent): read (and how
// long after the send) or unread, archived, the ack state, failed handler attempts
// (mail::failed_handler_attempts), the watcher holding it, set aside. Times are RFC 3339 UTC with
// milliseconds; durations trace_duration's. A message whose parent span is not in the trace (a
// parent outside mailroom, from TRACEPARENT) is a root. `messages` may come in any order. Ends in
// '\n' (empty for no messages).
text::DisplayText render_trace_tree(const std::vector<mail::Message>& messages,
                                    const TraceDeliveries& deliveries = {});

// A duration for people: "350ms", "1.4s" (tenths under a minute), else "2m5s", "1h3m".
std::string trace_duration(mail::Millis ms);

} // namespace mailroom::render
