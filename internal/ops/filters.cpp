#include "filters.hpp"

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "mail/limits.hpp"
#include "read_names.hpp"
#include "render/json.hpp"
#include "render/lists.hpp"
#include "schema.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

Result<std::optional<mail::Mailbox>> mailbox_flag(const std::optional<std::string>& value,
                                                  std::string_view flag)
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

Result<std::optional<mail::UnixMillis>>
time_flag(const Session& session, const std::optional<std::string>& value, std::string_view flag)
{
  if (!value) {
    return std::optional<mail::UnixMillis>();
  }
  TRY_ASSIGN(const mail::UnixMillis when, mail::parse_time_or_age(*value, session.clock.now(), flag));
  return std::optional<mail::UnixMillis>(when);
}

} // namespace

Result<mail::ThreadId> resolve_thread(Session& session, mail::Provider& provider, const std::string& typed)
{
  auto exact = provider.thread(session.me.name, typed);
  if (exact.ok()) {
    return exact->thread_id;
  }
  if (exact.error().code != ErrorCode::not_found) {
    return std::move(exact).error();
  }
  auto id = mail::resolve_id(provider, typed);
  if (!id.ok()) {
    if (id.error().code == ErrorCode::not_found) {
      return make_error(ErrorCode::not_found,
                        fmt::format("no thread or message \"{}\"", text::cap_for_echo(typed)));
    }
    return std::move(id).error();
  }
  TRY_ASSIGN(const mail::Message message, provider.get(session.me.name, *id));
  return message.thread_id;
}

Result<mail::Filters> resolve_filters(Session& session, mail::Provider& provider, const FilterRequest& typed)
{
  mail::Filters filters;
  TRY_ASSIGN(filters.from, mailbox_flag(typed.from, "--from"));
  TRY_ASSIGN(filters.to, mailbox_flag(typed.to, "--to"));
  // The read side's typo check: a list filtered by a mailbox the team does not know is a typo.
  for (const auto& [name, what] : {std::pair{&filters.from, "--from"}, std::pair{&filters.to, "--to"}}) {
    if (*name && **name != session.me.name) {
      TRY(check_read_name(session, provider, **name, what));
    }
  }
  for (const std::string& name : typed.types) {
    TRY_ASSIGN(const mail::MessageType type, session.policy.types.resolve(name));
    filters.types.push_back(type.name);
  }
  if (typed.priority) {
    const auto priority = mail::parse_priority(*typed.priority);
    if (!priority) {
      return usage_error(fmt::format("invalid priority \"{}\"", text::cap_for_echo(*typed.priority)),
                         "use urgent, high, normal, low, backlog or 0-4");
    }
    filters.priority = *priority;
  }
  TRY_ASSIGN(filters.since, time_flag(session, typed.since, "--since"));
  TRY_ASSIGN(filters.until, time_flag(session, typed.until, "--until"));
  filters.unread = typed.unread;
  filters.archived = typed.archived;
  if (typed.thread) {
    TRY_ASSIGN(filters.thread, resolve_thread(session, provider, *typed.thread));
  }
  return filters;
}

std::optional<std::size_t> list_limit(const LimitRequest& limit)
{
  if (limit.no_limit) {
    return std::nullopt;
  }
  return limit.limit.value_or(mail::k_default_list_limit);
}

std::optional<std::size_t> list_body_bytes(bool previews)
{
  if (!previews) {
    return std::nullopt;
  }
  return mail::k_preview_bytes;
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

nlohmann::json list_output_schema(std::initializer_list<std::pair<const char*, nlohmann::json>> extra)
{
  using namespace schema;
  nlohmann::json doc = document({{"mailbox", string()},
                                 {"messages", array_of(message())},
                                 {"total", integer()},
                                 {"has_more", boolean()}});
  for (const auto& [name, value] : extra) {
    doc["properties"][name] = value;
    doc["required"].push_back(name);
  }
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

std::vector<mail::Message> messages_of(const mail::ListResult& listed)
{
  std::vector<mail::Message> messages;
  messages.reserve(listed.messages.size());
  for (const auto& item : listed.messages) {
    messages.push_back(item.message);
  }
  return messages;
}

} // namespace mailroom::ops
