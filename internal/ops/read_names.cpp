#include "read_names.hpp"

#include "acting.hpp"
#include "mail/read_names.hpp"

namespace mailroom::ops {

Result<void> check_read_name(Session& session, mail::Provider& provider, const mail::Mailbox& name,
                             std::string_view what)
{
  mail::Registry* registry = provider.facets().registry;
  if (registry == nullptr || session.config.compat_gc.value) {
    // Nothing to check against; or Gas City's reads, where a mailbox nobody has written to is an
    // empty one (gc's conformance: `count` of an unknown name is 0 total), not a typo.
    return {};
  }
  TRY_ASSIGN(const mail::Directory directory, registry->directory());
  return mail::check_read_mailbox(name, what, directory, session.policy);
}

Result<mail::Mailbox> read_target(Session& session, const std::optional<std::string>& mailbox)
{
  TRY_ASSIGN(mail::Mailbox target, listing_target(session, mailbox));
  if (target != session.me.name) {
    auto provider = session.provider();
    if (!provider.ok()) {
      if (provider.error().reason == "no_store") {
        return target; // no store, no registry: the read itself says what no store means
      }
      return std::move(provider).error();
    }
    TRY(check_read_name(session, **provider, target, "mailbox"));
  }
  return target;
}

} // namespace mailroom::ops
