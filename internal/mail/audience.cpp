#include "mail/audience.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/limits.hpp"
#include "text/strings.hpp"

namespace mailroom::mail {

bool sorted_contains(const std::vector<Mailbox>& sorted, const Mailbox& name)
{
  return std::binary_search(sorted.begin(), sorted.end(), name);
}

namespace {

Error usage(std::string message, std::string hint = {})
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

// Every mailbox a send may name: the active registry, the config's agents and the reserved names.
std::vector<Mailbox> known_names(const Directory& directory, const MailPolicy& policy)
{
  std::set<Mailbox> names(directory.active.begin(), directory.active.end());
  for (const Mailbox& name : policy.config_agents) {
    if (!sorted_contains(directory.retired, name)) {
      names.insert(name);
    }
  }
  names.insert(std::string(k_human));
  return {names.begin(), names.end()};
}

// `group`: the group address (`@reviewers`) that named `name`, or empty when it was named itself.
Error unknown_recipient(const Mailbox& name, const std::vector<Mailbox>& known, bool retired,
                        const std::string& group = {})
{
  const std::string who =
      group.empty() ? fmt::format("\"{}\"", name) : fmt::format("\"{}\" (a member of group {})", name, group);
  Error error = make_error(ErrorCode::unknown_recipient,
                           retired ? fmt::format("unknown recipient {}: the mailbox was retired", who)
                                   : fmt::format("unknown recipient {}", who));
  error.input = name;
  error.suggestions = suggest_mailboxes(name, known);
  const std::string add = fmt::format("register it with: mailroom agents add {}", name);
  if (retired) {
    error.hint = fmt::format("it was removed with 'mailroom agents remove'; {}", add);
  } else if (!error.suggestions.empty()) {
    error.hint = fmt::format("did you mean \"{}\"? ({})", error.suggestions.front(), add);
  } else {
    error.hint = add;
  }
  return error;
}

void append_unique(std::vector<Mailbox>& out, std::set<Mailbox>& seen, const Mailbox& name)
{
  if (seen.insert(name).second) {
    out.push_back(name);
  }
}

// One address expanded into mailboxes (groups from the config, @all from the registry).
Result<std::vector<Mailbox>> expand(const std::string& text, const Mailbox& from, const Directory* directory,
                                    const MailPolicy& policy, bool& broadcast)
{
  TRY_ASSIGN(Address address, parse_address(text));
  switch (address.kind) {
  case Address::Kind::mailbox:
    return std::vector<Mailbox>{address.name};
  case Address::Kind::all: {
    if (directory == nullptr) {
      return make_error(ErrorCode::unsupported, "@all needs a registry, and this provider has none",
                        "name the recipients, or use a group from the config");
    }
    broadcast = true;
    std::vector<Mailbox> audience;
    for (const Mailbox& name : known_names(*directory, policy)) {
      if (name != from && !is_reserved_mailbox(name)) {
        audience.push_back(name);
      }
    }
    return audience;
  }
  case Address::Kind::group: {
    const auto group = policy.groups.find(address.name);
    if (group == policy.groups.end()) {
      std::vector<std::string> names;
      for (const auto& [name, members] : policy.groups) {
        names.push_back(name);
      }
      Error error =
          make_error(ErrorCode::unknown_recipient, fmt::format("unknown group \"@{}\"", address.name));
      error.input = text;
      for (const std::string& s : suggest_mailboxes(address.name, names)) {
        error.suggestions.push_back("@" + s);
      }
      error.hint = error.suggestions.empty() ? "define groups under [groups] in mailroom.toml"
                                             : fmt::format("did you mean \"{}\"?", error.suggestions.front());
      return error;
    }
    for (const Mailbox& member : group->second) {
      if (!is_valid_mailbox(member)) {
        Error error =
            make_error(ErrorCode::invalid_recipient, fmt::format("group \"@{}\" has an invalid member \"{}\"",
                                                                 address.name, text::cap_for_echo(member)));
        error.input = member;
        return error;
      }
    }
    return group->second;
  }
  }
  return std::vector<Mailbox>{};
}

} // namespace

Result<Audience> resolve_audience(const Mailbox& from, const std::vector<std::string>& to,
                                  const std::vector<std::string>& cc, const Directory* directory,
                                  const MailPolicy& policy)
{
  Audience audience;
  std::set<Mailbox> seen;
  std::set<std::string> addressed;
  std::vector<Mailbox> expanded_to;
  std::vector<Mailbox> expanded_cc;
  std::map<Mailbox, std::string> via_group; // a name a group address brought in -> that address
  for (const auto& [addresses, out] : {std::pair{&to, &expanded_to}, std::pair{&cc, &expanded_cc}}) {
    for (const std::string& text : *addresses) {
      TRY_ASSIGN(std::vector<Mailbox> names, expand(text, from, directory, policy, audience.broadcast));
      if (!text.empty() && text.front() == '@') {
        for (const Mailbox& name : names) {
          via_group.emplace(name, text);
        }
      }
      out->insert(out->end(), names.begin(), names.end());
      if (addressed.insert(text).second) {
        audience.addressed_to.push_back(text);
      }
    }
  }
  if (directory != nullptr && policy.recipients == RecipientPolicy::registered) {
    const std::vector<Mailbox> known = known_names(*directory, policy);
    for (const auto* list : {&expanded_to, &expanded_cc}) {
      for (const Mailbox& name : *list) {
        if (!sorted_contains(known, name) && !is_reserved_mailbox(name)) {
          const auto group = via_group.find(name);
          return unknown_recipient(name, known, sorted_contains(directory->retired, name),
                                   group == via_group.end() ? std::string() : group->second);
        }
      }
    }
  }
  for (const Mailbox& name : expanded_to) {
    append_unique(audience.to, seen, name);
  }
  for (const Mailbox& name : expanded_cc) {
    append_unique(audience.cc, seen, name);
  }
  if (audience.to.empty() && audience.cc.empty()) {
    if (audience.broadcast) {
      return usage("no recipients: @all matched no registered mailbox other than the sender");
    }
    return usage("no recipients");
  }
  if (audience.to.size() + audience.cc.size() > k_max_recipients) {
    return usage(fmt::format("{} recipients; the limit is {}", audience.to.size() + audience.cc.size(),
                             k_max_recipients));
  }
  return audience;
}

Result<Audience> reply_audience(const Message& original, const Mailbox& replier, bool reply_all,
                                bool confirmed)
{
  const bool is_recipient = std::find(original.to.begin(), original.to.end(), replier) != original.to.end() ||
                            std::find(original.cc.begin(), original.cc.end(), replier) != original.cc.end();
  if (original.from != replier && !is_recipient) {
    Error error = make_error(ErrorCode::not_recipient,
                             fmt::format("mailbox \"{}\" is not a recipient of {}", replier, original.id),
                             "only its sender and recipients can reply to it");
    return error;
  }
  Audience audience;
  std::set<Mailbox> seen{replier};
  if (original.from != replier) {
    append_unique(audience.to, seen, original.from);
  }
  if (reply_all || original.from == replier) {
    for (const Mailbox& name : original.to) {
      append_unique(audience.to, seen, name);
    }
  }
  if (reply_all) {
    for (const Mailbox& name : original.cc) {
      append_unique(audience.cc, seen, name);
    }
  }
  if (audience.to.empty() && audience.cc.empty()) {
    return usage("no recipients: you are the only one on that message");
  }
  const std::size_t count = audience.to.size() + audience.cc.size();
  if (reply_all && count > k_reply_all_confirm_above && !confirmed) {
    return usage(fmt::format("reply --all would mail {} mailboxes", count),
                 "add --yes to send it to all of them, or reply to the sender only");
  }
  for (const Mailbox& name : audience.to) {
    audience.addressed_to.push_back(name);
  }
  for (const Mailbox& name : audience.cc) {
    audience.addressed_to.push_back(name);
  }
  return audience;
}

std::optional<std::string> sender_read_note(const Message& message, const Mailbox& reader)
{
  std::vector<Mailbox> recipients = message.to;
  recipients.insert(recipients.end(), message.cc.begin(), message.cc.end());
  if (recipients.empty() || message.from != reader ||
      std::find(recipients.begin(), recipients.end(), reader) != recipients.end()) {
    return std::nullopt;
  }
  const std::string id = text::cap_for_echo(message.id);
  if (recipients.size() == 1) {
    return fmt::format("you sent {}; {}'s copy is unchanged (use --for {})", id, recipients.front(),
                       recipients.front());
  }
  std::vector<std::string> owners;
  for (const Mailbox& name : recipients) {
    owners.push_back(name + "'s");
  }
  std::string listed;
  for (std::size_t i = 0; i < owners.size(); ++i) {
    listed += i == 0 ? "" : (i + 1 == owners.size() ? " and " : ", ");
    listed += owners[i];
  }
  return fmt::format("you sent {}; {} copies are unchanged (use --for NAME)", id, listed);
}

} // namespace mailroom::mail
