#pragma once

// How a test reaches a store's facet operations: reach(provider).peers(…) calls the method on
// the store's facet (mail/facets.hpp), or is the `unsupported` error mail::need makes for a store
// without that facet — the answer an operation gets — so a case can assert either.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mail/provider.hpp"

namespace mailroom::testing {

// fn(*facet), or the error mail::need makes for `what` when `facet` is null.
template <typename Facet, typename Fn>
auto call_facet(Facet* facet, std::string_view what, Fn&& fn) -> decltype(fn(*facet))
{
  auto reached = mail::need(facet, what);
  if (!reached.ok()) {
    return std::move(reached).error();
  }
  return fn(**reached);
}

class Reach {
public:
  explicit Reach(mail::Provider& provider) : m_facets(provider.facets()), m_provider(provider) {}

  // Views.
  Result<mail::MessageId> resolve_id(const std::string& typed) { return mail::resolve_id(m_provider, typed); }
  Result<mail::StatusResult> status(const mail::MessageId& id)
  {
    return call_facet(m_facets.views, "status", [&](mail::Views& v) { return v.status(id); });
  }
  Result<mail::TraceResult> trace(const mail::Mailbox& viewer, const std::string& id)
  {
    return call_facet(m_facets.views, "trace", [&](mail::Views& v) { return v.trace(viewer, id); });
  }
  Result<std::vector<mail::TraceSummary>> recent_traces(std::size_t limit)
  {
    return call_facet(m_facets.views, "trace --recent",
                      [&](mail::Views& v) { return v.recent_traces(limit); });
  }
  Result<std::vector<mail::OpenDelivery>> open_deliveries(const mail::OpenDeliveriesQuery& query)
  {
    return call_facet(m_facets.views, "archive --all-recipients",
                      [&](mail::Views& v) { return v.open_deliveries(query); });
  }

  // Registry.
  Result<mail::Directory> directory()
  {
    return call_facet(m_facets.registry, "the registry", [&](mail::Registry& r) { return r.directory(); });
  }
  Result<mail::MailboxInfo> mailbox_info(const mail::Mailbox& name)
  {
    return call_facet(m_facets.registry, "the registry",
                      [&](mail::Registry& r) { return r.mailbox_info(name); });
  }
  Result<std::vector<mail::Agent>> agents()
  {
    return call_facet(m_facets.registry, "agents", [&](mail::Registry& r) { return r.agents(); });
  }
  Result<std::vector<mail::Mailbox>> add_agents(const std::vector<mail::Mailbox>& names)
  {
    return call_facet(m_facets.registry, "agents add",
                      [&](mail::Registry& r) { return r.add_agents(names); });
  }
  Result<std::int64_t> remove_agent(const mail::Mailbox& name)
  {
    return call_facet(m_facets.registry, "agents remove",
                      [&](mail::Registry& r) { return r.remove_agent(name); });
  }
  // Presence is a courtesy: without a registry there is nowhere to keep it, and nothing fails.
  Result<void> touch(const mail::Mailbox& name, std::int64_t min_interval_ms, mail::SeenVia via)
  {
    if (m_facets.registry == nullptr) {
      return {};
    }
    return m_facets.registry->touch(name, min_interval_ms, via);
  }

  // Delivery health.
  Result<mail::PeersResult> peers(const mail::Mailbox& me, const std::optional<mail::Mailbox>& peer)
  {
    return call_facet(m_facets.health, "peers", [&](mail::Health& h) { return h.peers(me, peer); });
  }
  Result<mail::PairsResult> pairs()
  {
    return call_facet(m_facets.health, "peers --all", [&](mail::Health& h) { return h.pairs(); });
  }
  Result<mail::TeamResult> team()
  {
    return call_facet(m_facets.health, "team", [&](mail::Health& h) { return h.team(); });
  }
  Result<mail::SweepReport> sweep(const mail::SweepRequest& request)
  {
    return call_facet(m_facets.health, "sweep", [&](mail::Health& h) { return h.sweep(request); });
  }

  // Claims.
  Result<mail::ClaimNext> claim_next(const mail::ClaimRequest& request)
  {
    return call_facet(m_facets.claims, "watch (claims)",
                      [&](mail::Claims& c) { return c.claim_next(request); });
  }
  Result<void> renew_claim(const mail::Claim& claim, std::int64_t lease_ms)
  {
    return call_facet(m_facets.claims, "watch (claims)",
                      [&](mail::Claims& c) { return c.renew_claim(claim, lease_ms); });
  }
  Result<mail::ClaimResult> finish_claim(const mail::Claim& claim, const mail::ClaimFinish& finish)
  {
    return call_facet(m_facets.claims, "watch (claims)",
                      [&](mail::Claims& c) { return c.finish_claim(claim, finish); });
  }

  // The life of a request.
  Result<mail::CancelResult> cancel(const mail::CancelRequest& request)
  {
    return call_facet(m_facets.requests, "cancel", [&](mail::Requests& r) { return r.cancel(request); });
  }
  Result<mail::SendReceipt> respond(const mail::ReplyRequest& request)
  {
    return call_facet(m_facets.requests, "decline", [&](mail::Requests& r) { return r.respond(request); });
  }

  // The change signal: nullptr without the facet, as waiters see it.
  Result<std::unique_ptr<mail::ChangeSignal>> change_signal() { return mail::change_signal(m_provider); }

  // The event log.
  Result<mail::EventsPage> events(std::int64_t after_seq, std::size_t limit)
  {
    return call_facet(m_facets.events, "events",
                      [&](mail::EventLog& e) { return e.events(after_seq, limit); });
  }
  Result<std::int64_t> prune_events(const mail::EventRetention& retention)
  {
    return call_facet(m_facets.events, "events",
                      [&](mail::EventLog& e) { return e.prune_events(retention); });
  }

  // Transfer.
  Result<void> export_records(const mail::ExportRequest& request, const mail::RecordSink& sink)
  {
    return call_facet(m_facets.transfer, "export",
                      [&](mail::Transfer& t) { return t.export_records(request, sink); });
  }
  Result<mail::ImportReport> import_records(mail::RecordSource& source)
  {
    return call_facet(m_facets.transfer, "import",
                      [&](mail::Transfer& t) { return t.import_records(source); });
  }
  Result<mail::PurgeReport> purge(const mail::PurgeRequest& request)
  {
    return call_facet(m_facets.transfer, "purge", [&](mail::Transfer& t) { return t.purge(request); });
  }

private:
  mail::Facets m_facets;
  mail::Provider& m_provider;
};

// A Reach of `provider` (or of the provider a pointer names).
inline Reach reach(mail::Provider& provider)
{
  return Reach(provider);
}

} // namespace mailroom::testing
