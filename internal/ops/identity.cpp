#include "identity.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/address.hpp"

namespace mailroom::ops {

namespace {

bool listed(const std::vector<mail::Mailbox>& names, const mail::Mailbox& name)
{
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The registry `me` is checked against: the store's own, else the roster a store without one is
// configured with (exec); nullopt when there is neither. Records the state of `me` in `state`.
Result<std::optional<mail::Directory>> known_names(mail::Provider& provider, const mail::Mailbox& me,
                                                   mail::MailboxInfo::State& state)
{
  const mail::Facets facets = provider.facets();
  if (mail::Registry* registry = facets.registry) {
    TRY_ASSIGN(const mail::MailboxInfo info, registry->mailbox_info(me));
    state = info.state;
    if (state == mail::MailboxInfo::State::active) {
      return std::optional<mail::Directory>(); // no suggestions needed
    }
    auto directory = registry->directory();
    return directory.ok() ? std::optional<mail::Directory>(std::move(directory).value())
                          : std::optional<mail::Directory>(mail::Directory{});
  }
  if (facets.roster == nullptr) {
    return std::optional<mail::Directory>();
  }
  TRY_ASSIGN(std::optional<mail::Directory> roster, facets.roster->roster());
  if (!roster) {
    state = mail::MailboxInfo::State::active; // nothing configured: nothing to check
    return roster;
  }
  state = listed(roster->active, me)    ? mail::MailboxInfo::State::active
          : listed(roster->retired, me) ? mail::MailboxInfo::State::retired
                                        : mail::MailboxInfo::State::unknown;
  return roster;
}

} // namespace

Result<void> guard_identity(mail::Provider& provider, const config::Identity& me,
                            const mail::MailPolicy& policy, bool registers_on_use)
{
  const mail::Facets facets = provider.facets();
  if ((facets.registry == nullptr && facets.roster == nullptr) || mail::is_reserved_mailbox(me.name) ||
      registers_on_use || listed(policy.config_agents, me.name)) {
    return {};
  }
  mail::MailboxInfo::State state = mail::MailboxInfo::State::unknown;
  TRY_ASSIGN(const std::optional<mail::Directory> directory, known_names(provider, me.name, state));
  if (state == mail::MailboxInfo::State::active) {
    return {};
  }
  const std::string where = config::to_string(me.origin);
  Error error = make_error(ErrorCode::unknown_recipient,
                           state == mail::MailboxInfo::State::retired
                               ? fmt::format("identity \"{}\" (from {}) is a retired mailbox", me.name, where)
                               : fmt::format("unknown identity \"{}\" (from {})", me.name, where));
  error.input = me.name;
  if (directory) {
    std::vector<std::string> known = directory->active;
    known.insert(known.end(), policy.config_agents.begin(), policy.config_agents.end());
    error.suggestions = mail::suggest_mailboxes(me.name, known);
  }
  // A store's registry takes `agents add`; a roster is configuration (exec has no registry).
  const std::string add = facets.registry != nullptr
                              ? fmt::format("register it with: mailroom agents add {}", me.name)
                              : std::string("add it to [agents] names in the configuration");
  error.hint = error.suggestions.empty()
                   ? add
                   : fmt::format("did you mean \"{}\"? ({})", error.suggestions.front(), add);
  return error;
}

} // namespace mailroom::ops
