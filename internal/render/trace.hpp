#pragma once

// The `trace` view: the messages of one trace as a tree (contract "Traces").

#include <vector>

#include "mail/message.hpp"
#include "text/display.hpp"

namespace mailroom::render {

// One line per message, a child under its parent (the message whose span_id is its
// parent_span_id), siblings and roots oldest first:
//   <time>  <from> → <to>  <type>  <subject>[ (expired)]
//   └─ <time>  <from> → <to>  <type>  <subject>  +<time since its parent>
// deeper levels indent by three more columns. Times are RFC 3339 UTC with milliseconds. A message
// whose parent span is not in the trace (a parent outside mailroom, from TRACEPARENT) is a root.
// `messages` may come in any order. Ends in '\n' (empty for no messages).
text::DisplayText render_trace_tree(const std::vector<mail::Message>& messages);

} // namespace mailroom::render
