#include "schedule_firing.hpp"

#include <algorithm>
#include <chrono>

#include <poll.h>

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "mail/signal.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "schedules.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"
#include "util/interrupt.hpp"
#include "wake.hpp"

namespace mailroom::ops {

namespace {

nlohmann::json row_to_json(const mail::Fired& fired, const mail::Firing& f)
{
  nlohmann::json j;
  j["name"] = fired.name;
  j["from"] = fired.from;
  j["slot"] = render::format_rfc3339(f.slot);
  j["kind"] = mail::to_string(f.kind);
  j["fired_at"] = render::format_rfc3339(f.fired_at);
  j["lateness_ms"] = f.lateness();
  j["outcome"] = mail::to_string(f.outcome);
  j["message_id"] = f.message_id ? nlohmann::json(*f.message_id) : nlohmann::json(nullptr);
  j["count"] = f.count;
  j["last_slot"] =
      f.last_slot ? nlohmann::json(render::format_rfc3339(*f.last_slot)) : nlohmann::json(nullptr);
  j["error_code"] = f.error_code.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.error_code);
  j["detail"] = text::json_text(f.detail);
  return j;
}

std::string row_line(const mail::Fired& fired, const mail::Firing& f, bool dry_run)
{
  const std::string slot = render::format_rfc3339(f.slot);
  if (f.outcome == mail::FiringOutcome::missed) {
    return fmt::format("{}{}: missed {} slot(s) from {} to {}", dry_run ? "Would record " : "", fired.name,
                       f.count, slot, render::format_rfc3339(f.last_slot.value_or(f.slot)));
  }
  if (dry_run) {
    return fmt::format("Would fire {} for {}", fired.name, slot);
  }
  std::string line = fmt::format("Fired {} for {}: {}", fired.name, slot, mail::to_string(f.outcome));
  if (f.message_id) {
    line += fmt::format(" {}", *f.message_id);
  }
  if (!f.detail.empty()) {
    line += fmt::format(" ({})", f.detail);
  }
  return line;
}

// Records this firer's heartbeat when the last one it wrote is a minute old (one write a minute,
// not one a pass).
class Heartbeat {
public:
  void beat(mail::Schedules& schedules, mail::FirerKind kind, mail::UnixMillis now)
  {
    if (m_last && now - *m_last < mail::k_firer_heartbeat_every) {
      return;
    }
    if (schedules.record_firer(kind).ok()) {
      m_last = now;
    }
  }

private:
  std::optional<mail::UnixMillis> m_last;
};

bool readable(int fd)
{
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

void wait_readable(int fd, std::chrono::steady_clock::time_point deadline)
{
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  pollfd p{fd, POLLIN, 0};
  (void)::poll(&p, 1, static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 24 * 3600 * 1000)));
}

Result<FireResult> fire_pass(Session& session, mail::Schedules& schedules, const mail::FireRequest& request,
                             mail::FirerKind kind, Heartbeat& heartbeat)
{
  if (!request.dry_run) {
    heartbeat.beat(schedules, kind, session.clock.now());
  }
  FireResult result;
  mail::FireRequest waking = request;
  waking.wake = wake_when(session, true);
  TRY_ASSIGN(result.report, schedules.fire(waking));
  return result;
}

Result<std::optional<mail::Mailbox>> owner_filter(const std::optional<std::string>& from)
{
  if (!from) {
    return std::optional<mail::Mailbox>();
  }
  if (!mail::is_valid_mailbox(*from)) {
    TRY(mail::parse_address(*from));
    return usage_error(fmt::format("--from \"{}\" is not a mailbox", *from), "name one owner, e.g. mayor");
  }
  return std::optional<mail::Mailbox>(*from);
}

} // namespace

Result<FireResult> fire_due(Session& session, mail::FirerKind kind, bool dry_run,
                            const std::optional<mail::Mailbox>& from)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  mail::Schedules* schedules = provider->facets().schedules;
  if (schedules == nullptr) {
    return FireResult{};
  }
  mail::FireRequest request;
  request.dry_run = dry_run;
  request.from = from;
  Heartbeat heartbeat;
  return fire_pass(session, *schedules, request, kind, heartbeat);
}

Result<FireEnd> schedule_run_due(Session& session, const RunDueRequest& request, const FireEvents& events)
{
  mail::FireRequest query;
  query.dry_run = request.dry_run;
  TRY_ASSIGN(query.from, owner_filter(request.from));
  std::optional<mail::Millis> loop;
  if (request.loop) {
    TRY_ASSIGN(loop, mail::parse_duration(*request.loop, "--loop"));
    if (*loop <= 0) {
      return usage_error("--loop must be longer than 0");
    }
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Schedules * schedules, mail::need(provider->facets().schedules, "schedules"));
  Heartbeat heartbeat;
  if (!loop) {
    TRY_ASSIGN(FireResult pass, fire_pass(session, *schedules, query, mail::FirerKind::run_due, heartbeat));
    const Result<void> shown = events.pass(pass);
    if (pass.report.stopped) {
      return *pass.report.stopped;
    }
    TRY(shown);
    return FireEnd{};
  }
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> interrupts, util::InterruptWatch::install());
  TRY(fire_until_stopped(session, mail::FirerKind::run_due, query, *loop, interrupts->fd(), events));
  return FireEnd{interrupts->received()};
}

Result<void> fire_until_stopped(Session& session, mail::FirerKind kind, const mail::FireRequest& query,
                                mail::Millis max_wait, int stop_fd, const FireEvents& events)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Schedules * schedules, mail::need(provider->facets().schedules, "schedules"));
  // Armed before the first pass, so that nothing committed after it is missed.
  auto signal = mail::change_signal(*provider);
  std::unique_ptr<mail::ChangeSignal> changes = signal.ok() ? std::move(signal).value() : nullptr;
  Heartbeat heartbeat;
  while (!readable(stop_fd)) {
    auto pass = fire_pass(session, *schedules, query, kind, heartbeat);
    // The long-running firers run the deferred wakes too (cooldown expiry, idle_after, wakes
    // recorded by a process that could not run them).
    wake_pass(session);
    mail::Millis wait = max_wait;
    if (pass.ok()) {
      pass->repeating = true;
      TRY(events.pass(*pass));
      if (const auto status = schedules->firer_status(); status.ok() && status->next_due) {
        wait = std::clamp<mail::Millis>(*status->next_due - status->now, 0, max_wait);
      }
      if (pass->report.fired.empty()) {
        // Due but nothing fired (another firer holds it): do not spin on it.
        wait = std::max<mail::Millis>(wait, std::min<mail::Millis>(mail::k_second_ms, max_wait));
      }
    }
    const Error* failed =
        !pass.ok() ? &pass.error() : (pass->report.stopped ? &*pass->report.stopped : nullptr);
    if (failed != nullptr) {
      wait = max_wait;
      events.failed(*failed, wait); // a firer outlives a locked or unreachable store
    }
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max<mail::Millis>(wait, 1));
    if (changes == nullptr || failed != nullptr || !changes->wait(deadline, stop_fd).ok()) {
      wait_readable(stop_fd, deadline);
    }
  }
  return {};
}

Result<FireResult> schedule_run_now(Session& session, const RunNowRequest& request)
{
  TRY_ASSIGN(const mail::Mailbox owner, schedule_owner(session, request.for_name));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Schedules * schedules, mail::need(provider->facets().schedules, "schedules"));
  mail::FireRequest query;
  query.from = owner;
  query.run_now = request.name;
  query.wake = wake_when(session, true);
  FireResult result;
  TRY_ASSIGN(result.report, schedules->fire(query));
  return result;
}

nlohmann::json fired_to_json(const mail::FireReport& report)
{
  nlohmann::json rows = nlohmann::json::array();
  for (const mail::Fired& fired : report.fired) {
    for (const mail::Firing& f : fired.rows) {
      rows.push_back(row_to_json(fired, f));
    }
  }
  return rows;
}

nlohmann::json to_json(const FireResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = !result.report.stopped.has_value();
  doc["dry_run"] = result.report.dry_run;
  doc["fired"] = fired_to_json(result.report);
  return doc;
}

std::vector<nlohmann::json> fire_events_json(const FireResult& result)
{
  std::vector<nlohmann::json> lines;
  std::size_t count = 0;
  for (const mail::Fired& fired : result.report.fired) {
    for (const mail::Firing& f : fired.rows) {
      nlohmann::json event = render::json_document();
      event["event"] = result.report.dry_run ? "would_fire" : "fired";
      event.update(row_to_json(fired, f));
      lines.push_back(std::move(event));
      ++count;
    }
  }
  nlohmann::json pass = render::json_document();
  pass["event"] = "pass";
  pass["ok"] = !result.report.stopped.has_value();
  pass["dry_run"] = result.report.dry_run;
  pass["fired_count"] = count;
  lines.push_back(std::move(pass));
  return lines;
}

text::DisplayText fired_lines(const mail::FireReport& report)
{
  text::DisplayText out;
  for (const mail::Fired& fired : report.fired) {
    for (const mail::Firing& f : fired.rows) {
      out += text::sanitize_line(row_line(fired, f, report.dry_run));
      out += "\n";
    }
  }
  return out;
}

text::DisplayText to_text(const FireResult& result, const render::Style& /*style*/)
{
  text::DisplayText out = fired_lines(result.report);
  if (out.empty() && !result.repeating) {
    out += "Nothing is due\n";
  }
  return out;
}

FirerCheck firer_check(const config::Config& config, const StoreOpener& open)
{
  auto settings = config::provider_settings(config);
  if (!settings.ok()) {
    return {true, "no store to check"};
  }
  settings->store.access = mail::Access::read;
  auto provider = open(*settings);
  if (!provider.ok()) {
    return {true, fmt::format("not checked: {}", provider.error().message)};
  }
  mail::Schedules* schedules = (*provider)->facets().schedules;
  if (schedules == nullptr) {
    return {true, "this store keeps no schedules"};
  }
  const auto live = schedules->schedules(mail::ScheduleQuery{});
  const auto status = schedules->firer_status();
  if (!live.ok() || !status.ok()) {
    return {false, fmt::format("cannot read the schedules: {}",
                               (!live.ok() ? live.error() : status.error()).message)};
  }
  if (live->empty()) {
    return {true, "no schedules"};
  }
  if (status->last_beat && status->now - *status->last_beat <= mail::k_firer_heartbeat_window) {
    return {true,
            fmt::format("a firer ran {} ago ({} schedule(s))",
                        mail::format_duration(std::max<mail::Millis>(status->now - *status->last_beat, 0)),
                        live->size())};
  }
  return {false,
          fmt::format("no_firer: no firer has run in the last 5 minutes and {} schedule(s) wait; run "
                      "'mailroom schedule run-due' from cron or a systemd timer, or keep 'mailroom serve' "
                      "running (docs/schedules.md)",
                      live->size())};
}

nlohmann::json fire_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()},
                   {"dry_run", boolean()},
                   {"fired", array_of(object({{"name", string()},
                                              {"from", string()},
                                              {"slot", string()},
                                              {"kind", string()},
                                              {"fired_at", string()},
                                              {"lateness_ms", integer()},
                                              {"outcome", string()},
                                              {"message_id", nullable(string())},
                                              {"count", integer()},
                                              {"last_slot", nullable(string())},
                                              {"error_code", nullable(string())},
                                              {"detail", string()}}))}});
}

} // namespace mailroom::ops
