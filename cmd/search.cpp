// mailroom search: full-text search over subject, body and sender of the mail the caller sent or
// received, best match first (the query language is in mail/search_query.hpp).

#include <fmt/format.h>

#include "commands.hpp"
#include "list_support.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

namespace {

struct SearchOptions {
  std::vector<std::string> words; // joined with spaces: `search deploy failed`
  std::optional<std::string> mailbox;
  LimitOptions limit;
  FilterOptions filters;
};

Result<ExitCode> run_search(Context& ctx, const SearchOptions& opts)
{
  if (opts.words.empty()) {
    return usage_error("missing search query", "e.g. mailroom search 'deploy* NOT staging'");
  }
  TRY_ASSIGN(mail::Mailbox mailbox, inbox_target(ctx, opts.mailbox));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.box = mail::Box::search;
  query.search = text::join(opts.words, " ");
  query.limit = list_limit(opts.limit);
  query.body_bytes = list_body_bytes(ctx);
  TRY_ASSIGN(query.filters, resolve_filters(ctx, *provider, opts.filters));
  TRY_ASSIGN(mail::ListResult listed, provider->list(query));
  if (ctx.json) {
    nlohmann::json doc = list_to_json(mailbox, listed);
    doc["query"] = text::json_text(query.search);
    TRY(write_json(ctx, doc));
    return ExitCode::ok;
  }
  if (listed.messages.empty()) {
    TRY(write_text(ctx, text::DisplayText::format("No messages match {}\n",
                                                  text::sanitize_line(text::cap_for_echo(query.search)))));
    return ExitCode::ok;
  }
  std::vector<mail::Message> messages;
  for (auto& item : listed.messages) {
    messages.push_back(std::move(item.message));
  }
  TRY(write_text(ctx, render::render_inbox_table(messages, ctx.clock.now(), false, ctx.style())));
  TRY(write_text(ctx, showing_line(listed)));
  return ExitCode::ok;
}

} // namespace

void register_search(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<SearchOptions>();
  command.add_option("query", opts->words, "words (all must match), \"a phrase\", prefix*, OR, NOT");
  command.add_option("--mailbox", opts->mailbox, "search another mailbox's mail (default: you)")->type_name("NAME");
  add_limit_options(command, opts->limit);
  add_filter_options(command, opts->filters);
  command.footer("Examples:\n  mailroom search deploy failed\n  mailroom search '\"build failed\" OR timeout*'\n"
                 "  mailroom search 'release NOT staging' --from mayor --since 7d");
  inv.on_select(command, [opts](Context& ctx) { return run_search(ctx, *opts); });
}

} // namespace mailroom::cli
