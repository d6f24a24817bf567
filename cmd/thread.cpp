// mailroom thread: a conversation by thread id or by any message id in it, oldest first.

#include <fmt/format.h>

#include "commands.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct ThreadOptions {
  std::vector<std::string> ids;
};

Result<ExitCode> run_thread(Context& ctx, const ThreadOptions& opts)
{
  if (opts.ids.empty()) {
    return usage_error("missing thread ID");
  }
  if (opts.ids.size() > 1) {
    return usage_error("thread takes one thread or message ID");
  }
  const std::string& id = opts.ids.front();
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  auto result = provider->thread(ctx.me.name, id);
  if (!result.ok() && result.error().code == ErrorCode::not_found) {
    // Not a thread id nor a full message id: perhaps a unique prefix of a message id.
    auto full = provider->resolve_id(id);
    if (full.ok()) {
      result = provider->thread(ctx.me.name, *full);
    } else if (full.error().code != ErrorCode::not_found) {
      return std::move(full).error(); // ambiguous
    }
  }
  if (!result.ok() && result.error().code == ErrorCode::not_found) {
    // An empty or unknown thread: the contract's wording, exit 3; exit 0 under [compat] gc, where
    // gc's answer is an empty thread.
    const bool gc = ctx.config.compat_gc.value;
    if (ctx.json && !gc) {
      return std::move(result).error();
    }
    if (ctx.json) {
      result = mail::ThreadResult{id, {}};
    } else {
      TRY(write_text(ctx, text::DisplayText::format("No messages in thread {}\n", text::sanitize_line(id))));
      return gc ? ExitCode::ok : ExitCode::not_found;
    }
  }
  TRY_ASSIGN(mail::ThreadResult thread, std::move(result));
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["thread_id"] = thread.thread_id;
    doc["mailbox"] = ctx.me.name;
    doc["messages"] = nlohmann::json::array();
    for (const auto& m : thread.messages) {
      doc["messages"].push_back(render::message_to_json(m));
    }
    TRY(write_json(ctx, doc));
  } else if (thread.messages.empty()) {
    TRY(write_text(ctx, text::DisplayText::format("No messages in thread {}\n", text::sanitize_line(id))));
  } else {
    TRY(write_text(ctx, render::render_thread_view(thread.thread_id, thread.messages)));
  }
  return ExitCode::ok;
}

} // namespace

void register_thread(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ThreadOptions>();
  command.add_option("id", opts->ids, "a thread ID or any message ID in the thread");
  command.footer("Example:\n  mailroom thread mr-a1b2c3");
  inv.on_select(command, [opts](Context& ctx) { return run_thread(ctx, *opts); });
}

} // namespace mailroom::cli
