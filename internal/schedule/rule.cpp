#include "schedule/rule.hpp"

#include <algorithm>

namespace mailroom::schedule {

namespace {

constexpr Millis k_second_ms = 1000;
constexpr Seconds k_search_seconds = k_search_years * 366 * k_day_s;

// The first slot at or after `from` (seconds) of a cron expression whose times of day are fixed:
// each matching date's times, mapped to instants by the gap and fold rules.
std::optional<Seconds> next_fixed(const CronExpr& cron, const Zone& zone, Seconds from)
{
  const std::int64_t first_day = floor_div(zone.wall_of(from), k_day_s) - 1;
  const std::int64_t last_day = first_day + k_search_seconds / k_day_s;
  for (std::int64_t day = first_day; day <= last_day; ++day) {
    const Date date = date_from_days(day);
    if (!cron.matches_day(date, weekday_of_days(day))) {
      continue;
    }
    for (int hour = 0; hour < 24; ++hour) {
      if (!cron.hours[static_cast<std::size_t>(hour)]) {
        continue;
      }
      for (int minute = 0; minute < 60; ++minute) {
        if (!cron.minutes[static_cast<std::size_t>(minute)]) {
          continue;
        }
        const WallInstants at = zone.instants_of(day * k_day_s + hour * k_hour_s + minute * k_minute_s);
        const Seconds instant = at.count > 0 ? at.first : at.gap_end;
        if (instant >= from) {
          return instant;
        }
      }
    }
  }
  return std::nullopt;
}

// The first slot at or after `from` of a cron expression that follows the wall clock: in each
// stretch of constant offset, the first matching wall-clock minute.
std::optional<Seconds> next_wall_clock(const CronExpr& cron, const Zone& zone, Seconds from)
{
  const Seconds give_up = from + k_search_seconds;
  while (from < give_up) {
    const Seconds offset = zone.offset_at(from);
    const std::optional<Seconds> change = zone.next_transition(from);
    const Seconds until = change ? std::min(*change, give_up) : give_up;
    if (const auto wall = cron.next_match(from + offset, until + offset)) {
      return *wall - offset;
    }
    from = until;
  }
  return std::nullopt;
}

} // namespace

std::optional<Millis> next_slot(const Rule& rule, const Zone& zone, Millis after)
{
  std::optional<Millis> slot;
  switch (rule.kind) {
  case Rule::Kind::at:
    if (rule.at > after) {
      slot = rule.at;
    }
    break;
  case Rule::Kind::every:
    if (after < rule.anchor) {
      slot = rule.anchor;
    } else {
      slot = rule.anchor + ((after - rule.anchor) / rule.every + 1) * rule.every;
    }
    break;
  case Rule::Kind::cron: {
    Millis from_ms = after;
    if (rule.start && *rule.start - 1 > from_ms) {
      from_ms = *rule.start - 1;
    }
    const Seconds from = floor_div(from_ms, k_second_ms) + 1; // the first whole second after it
    const auto found =
        rule.cron.fixed_time ? next_fixed(rule.cron, zone, from) : next_wall_clock(rule.cron, zone, from);
    if (found) {
      slot = *found * k_second_ms;
    }
    break;
  }
  }
  if (slot && rule.until && *slot > *rule.until) {
    return std::nullopt;
  }
  return slot;
}

std::optional<Millis> period_after(const Rule& rule, const Zone& zone, Millis slot)
{
  if (rule.kind == Rule::Kind::at) {
    return std::nullopt;
  }
  Rule unbounded = rule;
  unbounded.until.reset();
  const auto next = next_slot(unbounded, zone, slot);
  if (!next) {
    return std::nullopt;
  }
  return *next - slot;
}

} // namespace mailroom::schedule
