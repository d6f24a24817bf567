#include "acting.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

Result<mail::Mailbox> listing_target(Session& session, const std::optional<std::string>& mailbox)
{
  if (!mailbox || *mailbox == session.me.name) {
    return session.me.name;
  }
  session.presence.reset(); // a view of another mailbox is not something its owner did
  if (!mail::is_valid_mailbox(*mailbox)) {
    TRY(mail::parse_address(*mailbox));
    return usage_error(fmt::format("\"{}\" is not a mailbox", *mailbox),
                       "name one mailbox, e.g. mayor or rig/mayor");
  }
  return *mailbox;
}

namespace {

std::vector<std::string> recipients_of(const mail::Message& message)
{
  std::vector<std::string> all = message.to;
  all.insert(all.end(), message.cc.begin(), message.cc.end());
  return all;
}

void announce(const Session& session, const std::string& name)
{
  session.tell("acting_for", "acting for " + name);
}

} // namespace

Result<mail::Actor> choose_actor(Session& session, mail::Provider& provider, const mail::MessageId& id,
                                 const std::optional<std::string>& for_name)
{
  if (for_name) {
    if (!mail::is_valid_mailbox(*for_name)) {
      TRY(mail::parse_address(*for_name));
      return usage_error(fmt::format("--for \"{}\" is not a mailbox", text::cap_for_echo(*for_name)),
                         "name one mailbox, e.g. mayor or rig/mayor");
    }
    if (*for_name != session.me.name) {
      announce(session, *for_name);
    }
    return mail::Actor{*for_name, session.me.name, session.seen_via()};
  }
  if (session.config.compat_gc.value) {
    TRY_ASSIGN(const mail::Message message, provider.get(session.me.name, id));
    const std::vector<std::string> recipients = recipients_of(message);
    const bool mine = std::find(recipients.begin(), recipients.end(), session.me.name) != recipients.end();
    if (!mine && recipients.size() == 1) {
      announce(session, recipients.front());
      return mail::Actor{recipients.front(), session.me.name, session.seen_via()};
    }
  }
  return session.actor();
}

Error explain_not_recipient(Session& session, mail::Provider& provider, const mail::MessageId& id,
                            Error failed)
{
  auto message = provider.get(session.me.name, id);
  if (message.ok()) {
    failed.hint = fmt::format("its recipients are {}; an operator acts for one with --for NAME",
                              text::cap_for_echo(text::join(recipients_of(*message), ", ")));
  }
  return failed;
}

Result<void> require_ids(const std::vector<std::string>& ids)
{
  if (ids.empty()) {
    return usage_error("missing message ID");
  }
  return {};
}

} // namespace mailroom::ops
