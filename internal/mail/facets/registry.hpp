#pragma once

// The registry facet: the store keeps who the mailboxes are (registered, retired) and when each
// last acted. A store with it checks recipients (unknown_recipient), expands @all and records
// presence; a store without it (Facets::registry null) does none of that.

#include <cstdint>
#include <vector>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/team.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

class Registry {
public:
  // Active and retired mailboxes, for identity checks and suggestions.
  virtual Result<Directory> directory() = 0;
  // Whether `name` is registered, retired or unknown, and when it was last seen. Cheap: the
  // identity guard runs it on every command.
  virtual Result<MailboxInfo> mailbox_info(const Mailbox& name) = 0;
  // The registry with unread totals, sorted by name.
  virtual Result<std::vector<Agent>> agents() = 0;
  // Registers `names` in one transaction (reactivating retired ones); returns those that changed.
  virtual Result<std::vector<Mailbox>> add_agents(const std::vector<Mailbox>& names) = 0;
  // Retires `name`: no longer a valid recipient nor in @all; delivered mail stays. Returns its
  // unread total at the time. Errors: not_found when it is not registered.
  virtual Result<std::int64_t> remove_agent(const Mailbox& name) = 0;
  // Records that a command ran as `name` now, by `via` (the seen_via column), unless last_seen is
  // newer than `min_interval_ms` ago (0: always). Never registers. Never waits for a lock held
  // elsewhere: a busy store is ErrorCode::timeout at once, and the caller skips the write.
  // Errors: store errors, timeout.
  virtual Result<void> touch(const Mailbox& name, std::int64_t min_interval_ms, SeenVia via) = 0;

protected:
  ~Registry() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
