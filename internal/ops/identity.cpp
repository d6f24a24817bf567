#include "identity.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/address.hpp"

namespace mailroom::ops {

Result<void> guard_identity(mail::Provider& provider, const config::Identity& me,
                            const mail::MailPolicy& policy, bool registers_on_use)
{
  mail::Registry* registry = provider.facets().registry;
  if (registry == nullptr || mail::is_reserved_mailbox(me.name) || registers_on_use ||
      std::find(policy.config_agents.begin(), policy.config_agents.end(), me.name) !=
          policy.config_agents.end()) {
    return {};
  }
  TRY_ASSIGN(mail::MailboxInfo info, registry->mailbox_info(me.name));
  if (info.state == mail::MailboxInfo::State::active) {
    return {};
  }
  const std::string where = config::to_string(me.origin);
  Error error = make_error(ErrorCode::unknown_recipient,
                           info.state == mail::MailboxInfo::State::retired
                               ? fmt::format("identity \"{}\" (from {}) is a retired mailbox", me.name, where)
                               : fmt::format("unknown identity \"{}\" (from {})", me.name, where));
  error.input = me.name;
  auto directory = registry->directory();
  if (directory.ok()) {
    std::vector<std::string> known = directory->active;
    known.insert(known.end(), policy.config_agents.begin(), policy.config_agents.end());
    error.suggestions = mail::suggest_mailboxes(me.name, known);
  }
  const std::string add = fmt::format("register it with: mailroom agents add {}", me.name);
  error.hint = error.suggestions.empty()
                   ? add
                   : fmt::format("did you mean \"{}\"? ({})", error.suggestions.front(), add);
  return error;
}

} // namespace mailroom::ops
