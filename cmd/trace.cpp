// mailroom trace: the messages of one trace (a trace id, or any message id in it) as a tree.

#include <fmt/format.h>

#include "commands.hpp"
#include "mail/ids.hpp"
#include "render/json.hpp"
#include "render/trace.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

namespace {

struct TraceOptions {
  std::vector<std::string> ids;
};

bool is_trace_id(std::string_view id)
{
  return id.size() == 32 && id.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

Result<ExitCode> run_trace(Context& ctx, const TraceOptions& opts)
{
  if (opts.ids.empty()) {
    return usage_error("missing trace or message ID");
  }
  if (opts.ids.size() > 1) {
    return usage_error("trace takes one trace or message ID");
  }
  std::string id = opts.ids.front();
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  if (!is_trace_id(id)) {
    // A message id, or a unique prefix of one (an ambiguous prefix is exit 2).
    auto resolved = provider->resolve_id(id);
    if (resolved.ok()) {
      id = *resolved;
    } else if (resolved.error().code != ErrorCode::not_found) {
      return std::move(resolved).error();
    }
  }
  auto result = provider->trace(ctx.me.name, id);
  if (!result.ok() && result.error().code == ErrorCode::not_found) {
    return make_error(ErrorCode::not_found,
                      fmt::format("no trace or message \"{}\"", text::cap_for_echo(opts.ids.front())));
  }
  TRY_ASSIGN(mail::TraceResult trace, std::move(result));
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["trace_id"] = trace.trace_id;
    doc["mailbox"] = ctx.me.name;
    doc["messages"] = nlohmann::json::array();
    for (const auto& m : trace.messages) {
      doc["messages"].push_back(render::message_to_json(m));
    }
    TRY(write_json(ctx, doc));
  } else {
    TRY(write_text(ctx,
                   bold(ctx, text::DisplayText::format("Trace {}", text::sanitize_line(trace.trace_id))) +
                       text::DisplayText("\n") + render::render_trace_tree(trace.messages)));
  }
  return ExitCode::ok;
}

} // namespace

void register_trace(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<TraceOptions>();
  command.add_option("id", opts->ids, "a trace ID (32 hex digits) or any message ID in the trace");
  command.footer("Examples:\n  mailroom trace mr-a1b2c3\n  mailroom --json trace 4bf92f3577b34da6a3ce929d0e0e4736");
  inv.on_select(command, [opts](Context& ctx) { return run_trace(ctx, *opts); });
}

} // namespace mailroom::cli
