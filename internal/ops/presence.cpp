#include "presence.hpp"

namespace mailroom::ops {

void record_presence(Session& session, std::int64_t min_interval_ms)
{
  if (!session.presence || !session.providers.opened()) {
    return;
  }
  auto provider = session.provider();
  if (provider.ok()) {
    (void)(*provider)->touch(session.me.name, min_interval_ms, *session.presence);
  }
}

} // namespace mailroom::ops
