#pragma once

// sweep: one pass of the redelivery sweep (contract "The redelivery sweep"), or, with `every`, a
// pass every DUR until SIGINT/SIGTERM. The store does the pass (its `sweep`); this decides the
// request, the repetition (a failed pass: tried again next time) and what a pass is shown as.
// Every pass also fires the schedules' due slots (schedule_firing.hpp), whether or not
// redelivery is on (decisions "Firers"), so `sweep --every` runs on when redelivery is off.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/health.hpp"
#include "mail/schedules.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct SweepRequest {
  bool dry_run = false;             // say what a pass would do, change nothing
  std::optional<std::string> from;  // only messages sent by this mailbox
  std::optional<std::string> every; // a duration: repeat until interrupted
};

struct SweepResult {
  mail::SweepReport report;
  bool repeating = false; // a pass of `every` (shown as events; its text says nothing when idle)
  bool first = true;      // the first pass (a repeating sweep says "redelivery is off" only then)
  mail::FireReport fired; // the schedules' slots this pass fired (or would, with dry_run)
};

// What a sweep tells its caller as it goes.
struct SweepEvents {
  // Each pass that ran, the one pass of a single sweep too. Its error ends a repeating sweep at
  // once, a single one after the pass's own (the pass is committed either way).
  std::function<Result<void>(const SweepResult& pass)> pass;
  // A pass of a repeating sweep that failed; it is tried again after `every`.
  std::function<void(const Error& error, mail::Millis every)> failed;
};

// How a sweep ended: 0, or the signal (SIGINT, SIGTERM) that stopped a repeating one.
struct SweepEnd {
  int signal = 0;
};

// Errors: usage (a bad --from or --every), the store's, a single pass that stopped part way
// (after its pass event), pass's.
Result<SweepEnd> sweep(Session& session, const SweepRequest& request, const SweepEvents& events);

// A single pass: {"schema_version":1,"enabled","dry_run","redelivered":[…],"escalated":[…],…,
// "fired":[…]}
nlohmann::json to_json(const SweepResult& result);
nlohmann::json sweep_output_schema();
// A repeating pass: one object per action and one "pass" object, each a line of JSON Lines.
std::vector<nlohmann::json> sweep_events_json(const SweepResult& result);
// A repeating pass that failed: {"schema_version":1,"event":"error","error":{…}}.
nlohmann::json sweep_error_json(const Error& error);
// One line per action, the "off" note when the sweep is disabled, and "Nothing is due" for an
// idle dry run (not for a repeating one).
text::DisplayText to_text(const SweepResult& result, const render::Style& style);

} // namespace mailroom::ops
