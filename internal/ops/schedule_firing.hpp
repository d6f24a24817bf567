#pragma once

// Firing schedules (contract "Schedules", decisions "Firers"): schedule run-due (once, or looping
// with --loop DUR), schedule run-now, and the one firing pass that sweep and serve run too. Each
// pass records the firer's heartbeat (at most once a minute), so send --at, schedule add and
// doctor can tell when nothing fires. Nothing here fires in a read-only command.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "mail/provider.hpp"
#include "mail/schedules.hpp"
#include "mail/settings.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct FireResult {
  mail::FireReport report;
  bool repeating = false; // a pass of a loop (shown as events; its text says nothing when idle)
};

// One firing pass as firer `kind`: every due slot (only `from`'s with it), or with dry_run what
// would fire. A store without schedules (the exec provider) fires nothing and says nothing.
// Errors: the store's before anything fired (report.stopped after).
Result<FireResult> fire_due(Session& session, mail::FirerKind kind, bool dry_run,
                            const std::optional<mail::Mailbox>& from);

struct RunDueRequest {
  bool dry_run = false;
  std::optional<std::string> from; // only this owner's schedules
  std::optional<std::string> loop; // a duration: fire, sleep until the next slot (at most DUR), again
};

// What run-due tells its caller as it goes (as sweep's events).
struct FireEvents {
  // Each pass that ran; its error ends a loop at once.
  std::function<Result<void>(const FireResult& pass)> pass;
  // A pass of a loop that failed; it is tried again after the wait.
  std::function<void(const Error& error, mail::Millis wait)> failed;
};

// How run-due ended: 0, or the signal (SIGINT, SIGTERM) that stopped a loop.
struct FireEnd {
  int signal = 0;
};

// Errors: usage (a bad --from or --loop), unsupported (no schedules here), the store's (a single
// pass), pass's.
Result<FireEnd> schedule_run_due(Session& session, const RunDueRequest& request, const FireEvents& events);

// Fires as firer `kind` until `stop_fd` becomes readable: a pass, then a wait until the next slot
// is due (at most `max_wait`) or the store changes (a schedule added or changed meanwhile), again.
// A failed pass is told to events.failed and tried again after `max_wait`. Errors: unsupported
// (no schedules here), events.pass's.
Result<void> fire_until_stopped(Session& session, mail::FirerKind kind, const mail::FireRequest& query,
                                mail::Millis max_wait, int stop_fd, const FireEvents& events);

struct RunNowRequest {
  std::string name;
  std::optional<std::string> for_name;
};

// One extra firing of a schedule now (kind run_now, its slot this instant), whatever its overlap
// and pause. Errors: not_found (did-you-mean), conflict for a second run-now within a minute
// (naming the first), unsupported, the store's.
Result<FireResult> schedule_run_now(Session& session, const RunNowRequest& request);

// {"schema_version":1,"ok","dry_run","fired":[{name,from,slot,kind,fired_at,lateness_ms,outcome,
//  message_id,count,last_slot,error_code,detail}]}
nlohmann::json to_json(const FireResult& result);
// The "fired" array alone (sweep's JSON carries it).
nlohmann::json fired_to_json(const mail::FireReport& report);
// A loop's pass: one {"event":"fired"|"would_fire",…} per firing row and one {"event":"pass"}.
std::vector<nlohmann::json> fire_events_json(const FireResult& result);
// One line per firing row; "Nothing is due" for a single idle pass.
text::DisplayText to_text(const FireResult& result, const render::Style& style);
// The lines of the firing rows alone (sweep's text shows them).
text::DisplayText fired_lines(const mail::FireReport& report);
nlohmann::json fire_output_schema();

// doctor's `firer` check: whether a firer recorded a heartbeat in the last 5 minutes while live
// schedules wait (the store opened read-only with `open`). ok when they do not wait: no store yet,
// a store without schedules (exec), none live. Never an error: what fails is in `detail`.
struct FirerCheck {
  bool ok = true;
  std::string detail;
};
using StoreOpener = std::function<Result<std::unique_ptr<mail::Provider>>(const mail::ProviderSettings&)>;
FirerCheck firer_check(const config::Config& config, const StoreOpener& open);

} // namespace mailroom::ops
