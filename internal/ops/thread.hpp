#pragma once

// thread: a conversation by thread id or by any message id in it (or a unique prefix of one),
// oldest first, as the caller sees it.

#include <string>

#include <nlohmann/json.hpp>

#include "mail/views.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct ThreadRequest {
  std::string id; // a thread id, a message id, or a unique prefix of a message id
};

struct ThreadResult {
  std::string typed; // the id as given
  mail::Mailbox mailbox;
  mail::ThreadResult thread;
};

// An empty or unknown thread is not_found ("No messages in thread ID" on the CLI, exit 3); under
// [compat] gc it is an empty thread, gc's answer. Errors: not_found, ambiguous_id, the provider's.
Result<ThreadResult> thread(Session& session, const ThreadRequest& request);

// {"schema_version":1,"thread_id","mailbox","messages":[…]}
nlohmann::json to_json(const ThreadResult& result);
// The thread view, or "No messages in thread ID\n" for an empty one.
text::DisplayText to_text(const ThreadResult& result, const render::Style& style);
// The line an unknown thread prints on the CLI (with exit 3).
text::DisplayText empty_thread_text(const std::string& typed);
nlohmann::json thread_output_schema();

} // namespace mailroom::ops
