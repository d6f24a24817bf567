#include "mail/provider.hpp"

#include <fmt/format.h>

namespace mailroom::mail {

Error unsupported(std::string_view provider, std::string_view what)
{
  return make_error(ErrorCode::unsupported,
                    fmt::format("{} is not supported by the {} provider", what, provider));
}

namespace {

Error not_here(std::string_view what)
{
  return make_error(ErrorCode::unsupported, fmt::format("{} is not supported by this provider", what));
}

} // namespace

Result<MessageId> Provider::resolve_id(const std::string& typed)
{
  return typed;
}

Result<StatusResult> Provider::status(const MessageId& /*id*/)
{
  return not_here("status");
}

Result<TraceResult> Provider::trace(const Mailbox& /*viewer*/, const std::string& /*id*/)
{
  return not_here("trace");
}

Result<std::vector<TraceSummary>> Provider::recent_traces(std::size_t /*limit*/)
{
  return not_here("trace --recent");
}

Result<Directory> Provider::directory()
{
  return not_here("the registry");
}

Result<MailboxInfo> Provider::mailbox_info(const Mailbox& /*name*/)
{
  return not_here("the registry");
}

Result<std::vector<Agent>> Provider::agents()
{
  return not_here("agents");
}

Result<std::vector<Mailbox>> Provider::add_agents(const std::vector<Mailbox>& /*names*/)
{
  return not_here("agents add");
}

Result<std::int64_t> Provider::remove_agent(const Mailbox& /*name*/)
{
  return not_here("agents remove");
}

Result<void> Provider::touch(const Mailbox& /*name*/, std::int64_t /*min_interval_ms*/, SeenVia /*via*/)
{
  return {}; // presence is a courtesy: a provider without a registry has nowhere to keep it
}

Result<PeersResult> Provider::peers(const Mailbox& /*me*/, const std::optional<Mailbox>& /*peer*/)
{
  return not_here("peers");
}

Result<PairsResult> Provider::pairs()
{
  return not_here("peers --all");
}

Result<TeamResult> Provider::team()
{
  return not_here("team");
}

Result<EventsPage> Provider::events(std::int64_t /*after_seq*/, std::size_t /*limit*/)
{
  return not_here("events");
}

Result<std::int64_t> Provider::prune_events(const EventRetention& /*retention*/)
{
  return not_here("events");
}

Result<SweepReport> Provider::sweep(const SweepRequest& /*request*/)
{
  return not_here("sweep");
}

Result<std::optional<Message>> Provider::take(const Actor& /*actor*/, const MessageId& /*id*/,
                                              const DeliverFn& /*deliver*/)
{
  return not_here("taking a message once (wait --read)");
}

Result<ClaimNext> Provider::claim_next(const ClaimRequest& /*request*/)
{
  return not_here("watch (claims)");
}

Result<void> Provider::renew_claim(const Claim& /*claim*/, std::int64_t /*lease_ms*/)
{
  return not_here("watch (claims)");
}

Result<ClaimResult> Provider::finish_claim(const Claim& /*claim*/, const ClaimFinish& /*finish*/)
{
  return not_here("watch (claims)");
}

Result<std::unique_ptr<ChangeSignal>> Provider::change_signal()
{
  return std::unique_ptr<ChangeSignal>();
}

Result<void> Provider::export_records(const ExportRequest& /*request*/, const RecordSink& /*sink*/)
{
  return not_here("export");
}

Result<ImportReport> Provider::import_records(RecordSource& /*source*/)
{
  return not_here("import");
}

Result<PurgeReport> Provider::purge(const PurgeRequest& /*request*/)
{
  return not_here("purge");
}

} // namespace mailroom::mail
