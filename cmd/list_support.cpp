#include "list_support.hpp"

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "mail/limits.hpp"
#include "render/json.hpp"
#include "render/lists.hpp"
#include "support.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

Result<std::optional<mail::Mailbox>> mailbox_flag(const std::optional<std::string>& value, std::string_view flag)
{
  if (!value) {
    return std::optional<mail::Mailbox>();
  }
  if (!mail::is_valid_mailbox(*value)) {
    TRY(mail::parse_address(*value)); // the shape error, when it is not even an address
    return usage_error(fmt::format("{} takes one mailbox, not \"{}\"", flag, text::cap_for_echo(*value)));
  }
  return std::optional<mail::Mailbox>(*value);
}

namespace {

Result<std::optional<mail::UnixMillis>> time_flag(Context& ctx, const std::optional<std::string>& value,
                                                  std::string_view flag)
{
  if (!value) {
    return std::optional<mail::UnixMillis>();
  }
  TRY_ASSIGN(const mail::UnixMillis when, mail::parse_time_or_age(*value, ctx.clock.now(), flag));
  return std::optional<mail::UnixMillis>(when);
}

} // namespace

void add_filter_options(CLI::App& command, FilterOptions& opts)
{
  const std::string group = "Filters";
  command.add_option("--from", opts.from, "only messages from this mailbox")->type_name("NAME")->group(group);
  command.add_option("--to", opts.to, "only messages to (or cc) this mailbox")->type_name("NAME")->group(group);
  command.add_option("--type", opts.types, "only messages of this type (repeat for several)")
      ->type_name("TYPE")
      ->group(group);
  command.add_option("--priority", opts.priority, "only this priority: urgent, high, normal, low, backlog or 0-4")
      ->type_name("P")
      ->group(group);
  command.add_option("--since", opts.since, "only messages sent since: a duration ago (2h, 7d) or a time")
      ->type_name("DUR|TIME")
      ->group(group);
  command.add_option("--until", opts.until, "only messages sent before: a duration ago or a time")
      ->type_name("DUR|TIME")
      ->group(group);
  command.add_flag("--unread", opts.unread, "only unread messages")->group(group);
  command.add_flag("--archived", opts.archived, "only archived messages")->group(group);
  command.add_option("--thread", opts.thread, "only this thread (a thread ID or any message ID in it)")
      ->type_name("ID")
      ->group(group);
}

Result<mail::ThreadId> resolve_thread(Context& ctx, mail::Provider& provider, const std::string& typed)
{
  auto exact = provider.thread(ctx.me.name, typed);
  if (exact.ok()) {
    return exact->thread_id;
  }
  if (exact.error().code != ErrorCode::not_found) {
    return std::move(exact).error();
  }
  auto id = provider.resolve_id(typed);
  if (!id.ok()) {
    if (id.error().code == ErrorCode::not_found) {
      return make_error(ErrorCode::not_found,
                        fmt::format("no thread or message \"{}\"", text::cap_for_echo(typed)));
    }
    return std::move(id).error();
  }
  TRY_ASSIGN(const mail::Message message, provider.get(ctx.me.name, *id));
  return message.thread_id;
}

Result<mail::Filters> resolve_filters(Context& ctx, mail::Provider& provider, const FilterOptions& opts)
{
  mail::Filters filters;
  TRY_ASSIGN(filters.from, mailbox_flag(opts.from, "--from"));
  TRY_ASSIGN(filters.to, mailbox_flag(opts.to, "--to"));
  for (const std::string& typed : opts.types) {
    TRY_ASSIGN(const mail::MessageType type, ctx.policy.types.resolve(typed));
    filters.types.push_back(type.name);
  }
  if (opts.priority) {
    const auto priority = mail::parse_priority(*opts.priority);
    if (!priority) {
      return usage_error(fmt::format("invalid priority \"{}\"", text::cap_for_echo(*opts.priority)),
                         "use urgent, high, normal, low, backlog or 0-4");
    }
    filters.priority = *priority;
  }
  TRY_ASSIGN(filters.since, time_flag(ctx, opts.since, "--since"));
  TRY_ASSIGN(filters.until, time_flag(ctx, opts.until, "--until"));
  filters.unread = opts.unread;
  filters.archived = opts.archived;
  if (opts.thread) {
    TRY_ASSIGN(filters.thread, resolve_thread(ctx, provider, *opts.thread));
  }
  return filters;
}

void add_limit_options(CLI::App& command, LimitOptions& opts)
{
  command.add_option("-n,--limit", opts.limit, "show at most N messages (default 50)")->check(CLI::PositiveNumber);
  command.add_flag("--no-limit", opts.no_limit, "show every message");
}

std::optional<std::size_t> list_body_bytes(const Context& ctx)
{
  if (ctx.json) {
    return std::nullopt;
  }
  return mail::k_preview_bytes;
}

std::optional<std::size_t> list_limit(const LimitOptions& opts)
{
  if (opts.no_limit) {
    return std::nullopt;
  }
  return opts.limit.value_or(mail::k_default_list_limit);
}

nlohmann::json list_to_json(const mail::Mailbox& mailbox, const mail::ListResult& listed)
{
  nlohmann::json doc = render::json_document();
  doc["mailbox"] = mailbox;
  doc["messages"] = nlohmann::json::array();
  for (const mail::ListedMessage& item : listed.messages) {
    nlohmann::json message = render::message_to_json(item.message);
    if (item.summary) {
      message["summary"] = render::summary_to_json(*item.summary);
    }
    doc["messages"].push_back(std::move(message));
  }
  doc["total"] = listed.total;
  doc["has_more"] = listed.has_more();
  return doc;
}

text::DisplayText showing_line(const mail::ListResult& listed)
{
  if (!listed.has_more()) {
    return {};
  }
  return text::DisplayText::format("Showing {} of {}; --limit to see more\n", listed.messages.size(),
                                   listed.total);
}

} // namespace mailroom::cli
