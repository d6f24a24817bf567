#pragma once

// What a store can do beyond the Gas City operations of mail::Provider: one facet interface per
// group of operations (mail/facets/*.hpp), reached through Provider::facets(). A capability IS
// the presence of its facet: a null pointer means the store has no such facet, and a caller that
// needs it turns that into the `unsupported` error with mail::need (below), the one place that
// error is made for a missing facet.
//
// Adding a facet: its interface in mail/facets/<name>.hpp (at most 8 virtual methods), a pointer
// here, and the stores that have it derive from it and set the pointer in their facets(); no
// other store changes.

#include <string_view>

#include "base/result.hpp"
#include "mail/facets/claims.hpp"
#include "mail/facets/events.hpp"
#include "mail/facets/health.hpp"
#include "mail/facets/hook_check.hpp"
#include "mail/facets/registry.hpp"
#include "mail/facets/requests.hpp"
#include "mail/facets/roster.hpp"
#include "mail/facets/schedules.hpp"
#include "mail/facets/signals.hpp"
#include "mail/facets/transfer.hpp"
#include "mail/facets/unarchive.hpp"
#include "mail/facets/views.hpp"
#include "mail/facets/wakes.hpp"
#include "mail/facets/whole_sends.hpp"

namespace mailroom::mail {

struct Facets {
  Registry* registry = nullptr;      // agents, unknown_recipient checks, @all, presence
  Views* views = nullptr;            // status, trace, id prefixes; list's sent, search, filters
  Health* health = nullptr;          // peers, pairs, team, sweep (ack itself is core: change)
  Claims* claims = nullptr;          // watch
  EventLog* events = nullptr;        // the live event log
  Signals* signals = nullptr;        // waking waiters on a change (absent: they poll)
  Transfer* transfer = nullptr;      // export, import, purge
  WholeSends* whole_sends = nullptr; // several recipients and compose's extras in one send
  Unarchive* unarchive = nullptr;    // known to unarchive
  Requests* requests = nullptr;      // cancel, decline, ask, fail (request_state kept per delivery)
  Roster* roster = nullptr;          // a configured registry, for a store without one (exec)
  HookCheck* hook_check = nullptr;   // the hook's answer kept for a slow store (exec)
  Schedules* schedules = nullptr;    // schedules and their firings
  Wakes* wakes = nullptr;            // wake targets and the wake ledger
};

// The `unsupported` error for `what` ("peers") on a store without the facet it needs.
Error missing_facet(std::string_view what);

// `facet`, or the `unsupported` error for `what` when the store has no such facet.
template <typename Facet> Result<Facet*> need(Facet* facet, std::string_view what)
{
  if (facet == nullptr) {
    return missing_facet(what);
  }
  return facet;
}

} // namespace mailroom::mail
