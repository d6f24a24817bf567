#include "send_checks.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "mail/audience.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

namespace {

// Whether `word` is written as, or is the name of, something a send delivers to.
Result<bool> names_an_address(const Session& session, mail::Provider& provider, const std::string& word)
{
  auto address = mail::parse_address(word);
  if (!address.ok()) {
    return false; // a subject with spaces, or any other non-address
  }
  if (address->kind == mail::Address::Kind::all) {
    return true;
  }
  if (session.policy.groups.count(address->name) > 0) {
    return true;
  }
  if (address->kind == mail::Address::Kind::group) {
    return false;
  }
  const auto& agents = session.policy.config_agents;
  if (std::find(agents.begin(), agents.end(), address->name) != agents.end()) {
    return true;
  }
  mail::Registry* registry = provider.facets().registry;
  if (registry == nullptr) {
    return false; // the exec provider without a registry: nothing to check against
  }
  TRY_ASSIGN(const mail::MailboxInfo info, registry->mailbox_info(address->name));
  return info.state == mail::MailboxInfo::State::active;
}

} // namespace

Result<void> refuse_address_subject(Session& session, mail::Provider& provider, const std::string& recipient,
                                    const std::string& subject)
{
  TRY_ASSIGN(const bool address, names_an_address(session, provider, subject));
  if (address) {
    return usage_error(
        fmt::format("\"{}\" would be the subject, but it names a recipient", text::cap_for_echo(subject)),
        fmt::format("to send to several, use --to {} --to {}", text::cap_for_echo(recipient),
                    text::cap_for_echo(subject)));
  }
  return {};
}

Result<void> check_recipients(Session& session, const std::vector<std::string>& to,
                              const std::vector<std::string>& cc)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  std::optional<mail::Directory> directory;
  if (mail::Registry* registry = provider->facets().registry) {
    TRY_ASSIGN(directory, registry->directory());
  }
  TRY(mail::resolve_audience(session.me.name, to, cc, directory ? &*directory : nullptr, session.policy));
  return {};
}

Result<void> check_reply(Session& session, const std::string& id, bool reply_all, bool confirmed)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(const mail::MessageId full, mail::resolve_id(*provider, id));
  auto original = provider->get(session.me.name, full);
  if (!original.ok()) {
    if (original.error().code == ErrorCode::unsupported) {
      return {}; // a script without `get`: the reply itself will say
    }
    return std::move(original).error();
  }
  TRY(mail::reply_audience(*original, session.me.name, reply_all, confirmed));
  return {};
}

} // namespace mailroom::ops
