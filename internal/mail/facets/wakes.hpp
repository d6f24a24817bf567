#pragma once

// The wakes facet (contract "Reaching an idle agent (wake)"): each mailbox's wake target and the
// ledger that makes every wake happen at most once, however many processes on however many hosts
// try (mail/wake.hpp has the values). Times are the store's clock. The stores decide nothing about
// when a wake is wanted (internal/ops) or how it runs (internal/wake); they record, claim under the
// cooldown, re-validate the delivery and report.

#include <optional>
#include <vector>

#include "base/result.hpp"
#include "mail/wake.hpp"

namespace mailroom::mail {

class Wakes {
public:
  // Stores `target` as `mailbox`'s wake target (replacing any), set_at now; nullopt removes it.
  // Wakes already recorded keep the target they were recorded with. Errors: not_found when
  // `mailbox` is not registered (a removal of no target succeeds).
  virtual Result<void> set_wake_target(const Mailbox& mailbox, const std::optional<WakeTarget>& target) = 0;
  // Every mailbox with a target or a ledger row: its target and its newest ledger row's outcome,
  // by mailbox. Changes nothing.
  virtual Result<std::vector<WakeStatus>> wake_statuses() = 0;
  // The targets of those of `mailboxes` that have one, in the order given. Changes nothing.
  virtual Result<std::vector<WakeTarget>> wake_targets(const std::vector<Mailbox>& mailboxes) = 0;
  // Records that `mailbox`'s hook ran now (check --inject), every time, when it has a target; never
  // waits for a lock (skipped when the store is busy).
  virtual Result<void> hook_ran(const Mailbox& mailbox) = 0;
  // true when the wake a send recorded for `message` (attempt 0, mail::SendRequest::wake) to one of
  // `recipients` could be claimed now by a process of `by`: pending and unclaimed, its target set
  // from `by`, and that recipient not woken through it within `cooldown`. The caller starts a
  // process to run it only then; otherwise a wake pass or the recipient's next wake runs it.
  // Changes nothing.
  virtual Result<bool> wake_ready(const MessageId& message, const std::vector<Mailbox>& recipients,
                                  const WakeHost& by, Millis cooldown) = 0;
  // Records and claims wakes (WakeClaimRequest says which), each row in its own transaction: a row
  // is claimed only by a process whose host and uid set its target, only once, after its delivery
  // is re-validated (else skipped), when the recipient's hook has not run within idle_after and
  // the conditional update of its (recipient, target) row (last wake before now - cooldown) wins
  // (else deferred to when it would); a claimed row marks the deferred rows of its pair combined.
  // Rows pending or deferred longer than give_up_after become unreachable; a pass (no messages)
  // with keep_for deletes the rows that ended longer ago, but each recipient's newest. Errors: store errors
  // before anything was committed.
  virtual Result<WakeClaims> claim_wakes(const WakeClaimRequest& request) = 0;
  // Records how claimed wake `key` ended (`finish`: sent, failed, skipped, or deferred again, to be
  // claimed at retry_at) and a wake.done event. Errors: not_found when no such row is claimed
  // and pending.
  virtual Result<void> finish_wake(const WakeKey& key, const WakeFinish& finish) = 0;
  // The ledger rows of `recipient` (every recipient when empty), newest first, at most `limit`.
  // Changes nothing.
  virtual Result<std::vector<WakeRow>> wake_ledger(const Mailbox& recipient, std::size_t limit) = 0;

protected:
  ~Wakes() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
