#include "presence.hpp"

namespace mailroom::ops {

void record_presence(Session& session, std::int64_t min_interval_ms)
{
  if (!session.presence || !session.providers.opened()) {
    return;
  }
  auto provider = session.provider();
  if (!provider.ok()) {
    return;
  }
  if (*session.presence == mail::SeenVia::hook) {
    // The hook's own last-run time, for [wake] idle_after: written on every run, never throttled
    // (decisions after review, "Timing"), and only for a mailbox with a wake target.
    if (mail::Wakes* wakes = (*provider)->facets().wakes) {
      (void)wakes->hook_ran(session.me.name);
    }
  }
  // Presence is a courtesy: a store without a registry has nowhere to keep it.
  if (mail::Registry* registry = (*provider)->facets().registry) {
    (void)registry->touch(session.me.name, min_interval_ms, *session.presence);
  }
}

} // namespace mailroom::ops
