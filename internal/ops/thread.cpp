#include "thread.hpp"

#include "render/json.hpp"
#include "render/render.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

Result<ThreadResult> thread(Session& session, const ThreadRequest& request)
{
  const std::string& id = request.id;
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  auto found = provider->thread(session.me.name, id);
  if (!found.ok() && found.error().code == ErrorCode::not_found) {
    // Not a thread id nor a full message id: perhaps a unique prefix of a message id.
    // A store without id prefixes (exec) answers with the id as typed: asking the thread again
    // would only repeat the script runs that just said no (docs/exec-protocol.md's counts).
    auto full = mail::resolve_id(*provider, id);
    if (!full.ok() && full.error().code != ErrorCode::not_found) {
      return std::move(full).error(); // ambiguous
    }
    if (full.ok() && *full != id) {
      found = provider->thread(session.me.name, *full);
    }
  }
  if (!found.ok() && found.error().code == ErrorCode::not_found && session.config.compat_gc.value) {
    found = mail::ThreadResult{id, {}};
  }
  TRY_ASSIGN(mail::ThreadResult conversation, std::move(found));
  return ThreadResult{id, session.me.name, std::move(conversation)};
}

nlohmann::json to_json(const ThreadResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["thread_id"] = result.thread.thread_id;
  doc["mailbox"] = result.mailbox;
  doc["messages"] = nlohmann::json::array();
  for (const auto& m : result.thread.messages) {
    doc["messages"].push_back(render::message_to_json(m));
  }
  return doc;
}

text::DisplayText empty_thread_text(const std::string& typed)
{
  return text::DisplayText::format("No messages in thread {}\n", text::sanitize_line(typed));
}

text::DisplayText to_text(const ThreadResult& result, const render::Style& /*style*/)
{
  if (result.thread.messages.empty()) {
    return empty_thread_text(result.typed);
  }
  return render::render_thread_view(result.thread.thread_id, result.thread.messages);
}

nlohmann::json thread_output_schema()
{
  using namespace schema;
  return document({{"thread_id", string()}, {"mailbox", string()}, {"messages", array_of(message())}});
}

} // namespace mailroom::ops
