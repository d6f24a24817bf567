#include "registry.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

namespace {

Result<void> validate_names(const std::vector<std::string>& names)
{
  if (names.empty()) {
    return usage_error("missing mailbox name");
  }
  for (const auto& name : names) {
    TRY_ASSIGN(mail::Address address, mail::parse_address(name));
    if (address.kind != mail::Address::Kind::mailbox) {
      return usage_error(fmt::format("\"{}\" is not a mailbox name", name));
    }
  }
  return {};
}

} // namespace

Result<AgentsChangeResult> add_agents(Session& session, const AgentsChangeRequest& request)
{
  TRY(validate_names(request.names));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Registry * registry, mail::need(provider->facets().registry, "agents add"));
  AgentsChangeResult result;
  TRY_ASSIGN(result.mailboxes, registry->add_agents(request.names));
  for (const auto& name : request.names) {
    if (std::find(result.mailboxes.begin(), result.mailboxes.end(), name) == result.mailboxes.end() &&
        std::find(result.already.begin(), result.already.end(), name) == result.already.end()) {
      result.already.push_back(name);
    }
  }
  return result;
}

Result<AgentsChangeResult> remove_agents(Session& session, const AgentsChangeRequest& request)
{
  TRY(validate_names(request.names));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Registry * registry, mail::need(provider->facets().registry, "agents remove"));
  std::vector<std::int64_t> unread;
  for (const auto& name : request.names) {
    TRY_ASSIGN(const std::int64_t left, registry->remove_agent(name));
    unread.push_back(left);
  }
  for (std::size_t i = 0; i < request.names.size(); ++i) {
    if (unread[i] > 0) {
      // Both ways it names work on a retired mailbox: views are open, and --for acts on its deliveries.
      session.tell(
          "unread_mail",
          fmt::format("{} still had {} unread message(s); they stay readable with 'mailroom inbox {}' "
                      "and --for {}",
                      request.names[i], unread[i], request.names[i], request.names[i]));
    }
  }
  AgentsChangeResult result;
  result.removed = true;
  result.mailboxes = request.names;
  return result;
}

nlohmann::json to_json(const AgentsChangeResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["ids"] = result.mailboxes; // kept for round-1 scripts; "mailboxes" is the name the contract uses
  doc["mailboxes"] = result.mailboxes;
  doc["already"] = result.already;
  return doc;
}

text::DisplayText to_text(const AgentsChangeResult& result, const render::Style& /*style*/)
{
  text::DisplayText text;
  for (const auto& name : result.mailboxes) {
    text += result.removed ? text::DisplayText::format("Removed {}\n", text::sanitize_line(name))
                           : text::DisplayText::format("Registered {}\n", text::sanitize_line(name));
  }
  for (const auto& name : result.already) {
    text += text::DisplayText::format("Already registered {}\n", text::sanitize_line(name));
  }
  return text;
}

nlohmann::json agents_change_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()},
                   {"ids", array_of(string())},
                   {"mailboxes", array_of(string())},
                   {"already", array_of(string())}});
}

} // namespace mailroom::ops
