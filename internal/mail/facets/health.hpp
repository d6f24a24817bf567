#pragma once

// The delivery health facet: peers, pairs, team and the redelivery sweep, all under the policy's
// [delivery] rules (mail/health.hpp and mail/team.hpp decide; the store counts).

#include <optional>

#include "base/result.hpp"
#include "mail/health.hpp"
#include "mail/message.hpp"
#include "mail/team.hpp"

namespace mailroom::mail {

class Health {
public:
  // Health of `me`'s channel to each other mailbox it sent mail to or received mail from (or just
  // `peer`), as mail::finish_peers orders it (stale first) under the policy's stale_after. Reads
  // only what a peer's figures need (never the whole history of `me`). Changes nothing.
  // Errors: not_found for a `peer` never exchanged mail with (or `me` itself).
  virtual Result<PeersResult> peers(const Mailbox& me, const std::optional<Mailbox>& peer) = 0;
  // Every sender × recipient pair of distinct mailboxes that exchanged mail, with its figures,
  // stale and order as mail::finish_pairs decides under the policy's stale_after. Changes nothing.
  virtual Result<PairsResult> pairs() = 0;
  // Every registered mailbox (retired ones too) plus `human` when it has mail or presence, with
  // the figures of mail::TeamMember counted at the store's clock and the states and order of
  // mail::finish_team under the policy's presence_after and stale_after. A view: changes nothing.
  virtual Result<TeamResult> team() = 0;
  // One pass of the redelivery sweep under the policy's [delivery.redelivery] (mail/health.hpp
  // decides each step): nothing when it is not enabled (report.enabled false); with dry_run,
  // what a pass would do, changing nothing either way. Redeliveries are committed in batches of
  // request.batch, escalations one transaction per (sender, peer) with their escalation message;
  // only committed actions are reported, and a failure after some commits is report.stopped.
  // Two sweeps at once never act twice on one delivery. Errors: store errors before anything
  // was committed.
  virtual Result<SweepReport> sweep(const SweepRequest& request) = 0;

protected:
  ~Health() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
