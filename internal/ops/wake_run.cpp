// Running wakes (ops/wake.hpp run_wakes, wake_pass): claim through the store, run through
// internal/wake, record how each ended. The store's clock decides the ledger's times; a tmux
// target's idle check reads the wall clock tmux stamps its activity with.

#include <chrono>

#include <fmt/format.h>

#include "errors.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"
#include "wake.hpp"
#include "wake/run.hpp"
#include "wake/target.hpp"
#include "wake/tmux.hpp"

namespace mailroom::ops {

namespace {

mail::WakeClaimRequest claim_request(const Session& session, const WakeRunRequest& request)
{
  const wake::Setter here = wake::Setter::this_process();
  mail::WakeClaimRequest claim;
  claim.messages = request.messages;
  claim.attempt = request.attempt;
  claim.recipient = request.recipient;
  claim.by = mail::WakeHost{here.host, here.uid};
  claim.cooldown = session.config.wake_cooldown_ms.value;
  claim.idle_after = session.config.wake_idle_after_ms.value;
  claim.give_up_after = session.config.wake_give_up_after_ms.value;
  claim.keep_for = session.config.wake_keep_for_ms.value;
  return claim;
}

// Runs one claimed wake and says how it ended.
mail::WakeFinish run_one(const Session& session, const mail::ClaimedWake& claimed)
{
  const config::Config& config = session.config;
  mail::WakeFinish finish;
  const auto failed = [&](std::string why) {
    finish.outcome = mail::WakeOutcome::failed;
    finish.detail = std::move(why);
    return finish;
  };
  const nlohmann::json stored = nlohmann::json::parse(claimed.key.target, nullptr, false);
  if (stored.is_discarded()) {
    return failed("the stored wake target is not JSON");
  }
  auto parsed = wake::from_stored(stored);
  if (!parsed.ok()) {
    return failed(parsed.error().message);
  }
  std::map<std::string, std::vector<std::string>> named;
  for (const auto& [name, argv] : config.wake_targets) {
    named[name] = argv.value;
  }
  auto target = wake::resolve_named(*parsed, named);
  if (!target.ok()) {
    return failed(target.error().message);
  }
  wake::Report report;
  if (target->kind == wake::TargetKind::tmux) {
    if (auto checked = wake::check_line(config.wake_line.value); !checked.ok()) {
      return failed(checked.error().message);
    }
    wake::TmuxOptions options;
    options.agent_commands = config.wake_agent_commands.value;
    options.idle_after = std::chrono::milliseconds(config.wake_idle_after_ms.value);
    options.submit_delay = std::chrono::milliseconds(config.wake_submit_delay_ms.value);
    const std::string line = wake::expand_line(config.wake_line.value, claimed.key.recipient, claimed.count,
                                               claimed.key.recipient);
    util::RealPause pause;
    const auto wall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    report = wake::wake_tmux(*target, line, options, wall_ms, pause);
  } else {
    wake::Facts facts;
    facts.to = claimed.key.recipient;
    facts.id = claimed.key.message;
    facts.from = claimed.from;
    facts.subject = claimed.subject;
    facts.count = claimed.count;
    report = wake::run_argv(wake::expand_argv(target->argv, facts));
  }
  finish.detail = report.reason;
  switch (report.outcome) {
  case wake::Outcome::sent:
    finish.outcome = mail::WakeOutcome::sent;
    break;
  case wake::Outcome::not_agent:
    // The pane runs something else (a shell, an editor): typing there would not reach the agent.
    finish.outcome = mail::WakeOutcome::skipped;
    finish.detail = report.reason.empty() ? std::string("not_agent") : report.reason;
    break;
  case wake::Outcome::not_idle:
    // Busy: tried again once the pane could have been idle for idle_after.
    finish.outcome = mail::WakeOutcome::deferred;
    finish.detail = report.reason.empty() ? std::string("not_idle") : report.reason;
    finish.retry_at = session.clock.now() + config.wake_idle_after_ms.value;
    break;
  case wake::Outcome::no_pane:
  case wake::Outcome::failed:
    finish.outcome = mail::WakeOutcome::failed;
    break;
  }
  return finish;
}

} // namespace

Result<WakeRunReport> run_wakes(Session& session, const WakeRunRequest& request)
{
  WakeRunReport report;
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  mail::Wakes* wakes = provider->facets().wakes;
  if (wakes == nullptr) {
    return report;
  }
  TRY_ASSIGN(mail::WakeClaims claims, wakes->claim_wakes(claim_request(session, request)));
  report.settled = std::move(claims.settled);
  for (const mail::ClaimedWake& claimed : claims.claimed) {
    const mail::WakeFinish finish = run_one(session, claimed);
    // A wake given up on while it ran (not_found) is recorded as the pass that gave it up said.
    if (auto done = wakes->finish_wake(claimed.key, finish);
        !done.ok() && done.error().code != ErrorCode::not_found) {
      return std::move(done).error();
    }
    report.ran.push_back(WakeRan{claimed.key, finish.outcome, finish.detail});
  }
  return report;
}

namespace {

nlohmann::json key_json(const mail::WakeKey& key, mail::WakeOutcome outcome, const std::string& reason)
{
  return {{"recipient", key.recipient},
          {"message_id", key.message},
          {"attempt", key.attempt},
          {"outcome", mail::to_string(outcome)},
          {"reason", reason}};
}

text::DisplayText key_line(const mail::WakeKey& key, mail::WakeOutcome outcome, const std::string& reason)
{
  text::DisplayText line = text::DisplayText::format("wake {} for {}: {}", text::sanitize_line(key.recipient),
                                                     text::sanitize_line(key.message),
                                                     text::sanitize_line(mail::to_string(outcome)));
  if (!reason.empty()) {
    line += text::DisplayText::format(" ({})", text::sanitize_line(reason));
  }
  line += "\n";
  return line;
}

} // namespace

nlohmann::json to_json(const WakeRunReport& report)
{
  nlohmann::json doc = render::json_document();
  doc["ran"] = nlohmann::json::array();
  for (const WakeRan& ran : report.ran) {
    doc["ran"].push_back(key_json(ran.key, ran.outcome, ran.reason));
  }
  doc["settled"] = nlohmann::json::array();
  for (const mail::WakeRow& row : report.settled) {
    doc["settled"].push_back(key_json(row.key, row.outcome, row.reason));
  }
  return doc;
}

nlohmann::json wake_run_output_schema()
{
  using namespace schema;
  const nlohmann::json wake = object({{"recipient", string()},
                                      {"message_id", string()},
                                      {"attempt", integer()},
                                      {"outcome", string()},
                                      {"reason", string()}});
  return document({{"ran", array_of(wake)}, {"settled", array_of(wake)}});
}

text::DisplayText to_text(const WakeRunReport& report, const render::Style& /*style*/)
{
  text::DisplayText text;
  for (const WakeRan& ran : report.ran) {
    text += key_line(ran.key, ran.outcome, ran.reason);
  }
  for (const mail::WakeRow& row : report.settled) {
    text += key_line(row.key, row.outcome, row.reason);
  }
  return text;
}

void wake_pass(Session& session)
{
  (void)run_wakes(session, WakeRunRequest{});
}

} // namespace mailroom::ops
