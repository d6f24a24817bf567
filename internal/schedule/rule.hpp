#pragma once

// When a schedule's slots are (contract "Schedules" and its decisions after review): a one-shot
// instant, every DUR of elapsed time from an anchor, or a cron expression evaluated in the
// schedule's zone, bounded by --start and --until. A slot is a UTC instant (milliseconds since
// the epoch, whole seconds). Around a daylight-saving change, as Vixie cron does it:
//  - minute and hour both fixed (CronExpr::fixed_time): a local time the clocks skip fires once
//    at the first valid instant after the gap (merged with a slot already there), and a repeated
//    local time fires at its first occurrence only;
//  - otherwise slots follow the wall clock as it runs: none in a gap, both passes of a fold.
// `--every` counts elapsed time, so a change never shifts it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "schedule/cron.hpp"
#include "schedule/zone.hpp"

namespace mailroom::schedule {

using Millis = std::int64_t; // milliseconds since the Unix epoch, or a duration

// How far ahead a rule is searched for its next slot: a cron expression that matches no day in
// this long (e.g. 30 February) never fires.
inline constexpr std::int64_t k_search_years = 12;

struct Rule {
  enum class Kind { at, every, cron };
  Kind kind = Kind::at;
  Millis at = 0;     // at: the one slot
  Millis every = 0;  // every: the period (whole seconds, at least one)
  Millis anchor = 0; // every: the first slot; the others are anchor + k × every
  CronExpr cron;     // cron
  std::string cron_text;
  std::optional<Millis> start; // cron: no slot before it
  std::optional<Millis> until; // no slot after it (a slot at `until` still fires)
};

// The first slot of `rule` strictly after `after`, evaluated in `zone`; nullopt when there is
// none (a one-shot already due, past --until, or a cron expression that no longer matches).
std::optional<Millis> next_slot(const Rule& rule, const Zone& zone, Millis after);

// The time from `slot` to the slot after it, ignoring --until (the default TTL of the message a
// slot sends); nullopt for a one-shot.
std::optional<Millis> period_after(const Rule& rule, const Zone& zone, Millis slot);

} // namespace mailroom::schedule
