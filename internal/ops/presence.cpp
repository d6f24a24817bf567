#include "presence.hpp"

#include "mail/limits.hpp"

namespace mailroom::ops {

void record_presence(Session& session)
{
  if (!session.presence || !session.providers.opened()) {
    return;
  }
  auto provider = session.provider();
  if (provider.ok()) {
    (void)(*provider)->touch(session.me.name, mail::k_presence_interval_ms, *session.presence);
  }
}

} // namespace mailroom::ops
