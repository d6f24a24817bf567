#pragma once

// The roster facet: a store that keeps no registry of its own (the exec provider) but is configured
// with one — `[agents] names`, or the registered mailboxes of a store the configuration names — so
// that identities and recipients are checked against it as a store checks its own (contract "Gas
// City, round 4": an identity the configured registry does not know is exit 2 on exec as on the
// store). A store with the registry facet has no roster: its registry is the roster.

#include <optional>

#include "base/result.hpp"
#include "mail/audience.hpp"

namespace mailroom::mail {

class Roster {
public:
  // The configured registry: its active and retired mailboxes (`[agents] names` are added by the
  // caller from the policy, as resolve_audience does); nullopt when none is configured, and then
  // nothing is checked. Errors: the named store's.
  virtual Result<std::optional<Directory>> roster() = 0;

protected:
  ~Roster() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
