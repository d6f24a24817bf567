#include "mail/read_names.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/message.hpp"
#include "text/strings.hpp"

namespace mailroom::mail {

Result<void> check_read_mailbox(const Mailbox& name, std::string_view what, const Directory& directory,
                                const MailPolicy& policy)
{
  const auto agent = std::find(policy.config_agents.begin(), policy.config_agents.end(), name);
  if (policy.recipients == RecipientPolicy::any || is_reserved_mailbox(name) ||
      sorted_contains(directory.active, name) || sorted_contains(directory.retired, name) ||
      agent != policy.config_agents.end()) {
    return {};
  }
  std::vector<Mailbox> known = directory.active;
  known.insert(known.end(), directory.retired.begin(), directory.retired.end());
  known.insert(known.end(), policy.config_agents.begin(), policy.config_agents.end());
  known.emplace_back(k_human);
  Error error = make_error(ErrorCode::unknown_recipient,
                           what == "mailbox"
                               ? fmt::format("no mailbox \"{}\"", text::cap_for_echo(name))
                               : fmt::format("{} \"{}\" names no mailbox", what, text::cap_for_echo(name)));
  error.input = name;
  error.suggestions = suggest_mailboxes(name, known);
  error.hint = error.suggestions.empty() ? std::string("list the mailboxes with: mailroom agents")
                                         : fmt::format("did you mean \"{}\"?", error.suggestions.front());
  return error;
}

} // namespace mailroom::mail
