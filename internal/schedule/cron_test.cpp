// The cron evaluator against an independent model: each row of the table states what its
// expression means as a predicate on a wall-clock minute, and the test finds the next five slots
// by stepping minute by minute through UTC instants (the gap and fold rules of rule.hpp written
// again as "which wall-clock minutes did this instant reach"), then compares them with
// next_slot's. Invalid expressions must fail with the offending field named.

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "mail/duration.hpp"
#include "schedule/cron.hpp"
#include "schedule/rule.hpp"

namespace {

using mailroom::schedule::civil_from_seconds;
using mailroom::schedule::CivilTime;
using mailroom::schedule::Millis;
using mailroom::schedule::Rule;
using mailroom::schedule::Seconds;
using mailroom::schedule::Zone;

using Predicate = std::function<bool(const CivilTime& t, int weekday)>;

struct Row {
  const char* expression;
  const char* zone;
  const char* start; // RFC 3339
  bool fixed;        // minute and hour are fixed (the DST rule for them applies)
  Predicate means;
};

int weekday_of(const CivilTime& t)
{
  return mailroom::schedule::weekday_of_days(mailroom::schedule::days_from_date(t.date));
}

// The next `count` slots after `start` by stepping every UTC minute.
std::vector<Millis> brute_force(const Row& row, const Zone& zone, Millis start, int count)
{
  std::vector<Millis> found;
  Seconds t = start / 1000 / 60 * 60 + 60;
  Seconds highest_wall = zone.wall_of(t - 60);
  for (int steps = 0; steps < 6 * 366 * 24 * 60 && static_cast<int>(found.size()) < count; ++steps, t += 60) {
    const Seconds wall = zone.wall_of(t);
    bool fires = false;
    if (!row.fixed) {
      const CivilTime c = civil_from_seconds(wall);
      fires = row.means(c, weekday_of(c));
    } else if (wall > highest_wall) {
      // The wall-clock minutes this instant reached for the first time: one, or a whole gap.
      for (Seconds w = highest_wall + 60; w <= wall && !fires; w += 60) {
        const CivilTime c = civil_from_seconds(w);
        fires = row.means(c, weekday_of(c));
      }
    }
    highest_wall = std::max(highest_wall, wall);
    if (fires) {
      found.push_back(t * 1000);
    }
  }
  return found;
}

bool in(int value, std::initializer_list<int> values)
{
  for (const int v : values) {
    if (v == value) {
      return true;
    }
  }
  return false;
}

// clang-format off
const std::vector<Row> k_rows = {
  {"* * * * *", "UTC", "2026-01-01T00:00:30Z", false, [](const CivilTime&, int) { return true; }},
  {"*/15 * * * *", "UTC", "2026-01-01T00:07:00Z", false, [](const CivilTime& t, int) { return t.minute % 15 == 0; }},
  {"5 * * * *", "UTC", "2026-01-01T00:05:00Z", false, [](const CivilTime& t, int) { return t.minute == 5; }},
  {"0 9 * * *", "UTC", "2026-01-01T09:00:00Z", true, [](const CivilTime& t, int) { return t.hour == 9 && t.minute == 0; }},
  {"0 9 * * mon-fri", "UTC", "2026-01-02T10:00:00Z", true,
   [](const CivilTime& t, int w) { return t.hour == 9 && t.minute == 0 && w >= 1 && w <= 5; }},
  {"30 8,12,18 * * *", "UTC", "2026-02-01T00:00:00Z", true,
   [](const CivilTime& t, int) { return t.minute == 30 && in(t.hour, {8, 12, 18}); }},
  {"0 */6 * * *", "UTC", "2026-02-01T05:00:00Z", false, [](const CivilTime& t, int) { return t.minute == 0 && t.hour % 6 == 0; }},
  {"0 9-17 * * 1-5", "UTC", "2026-03-06T16:30:00Z", false,
   [](const CivilTime& t, int w) { return t.minute == 0 && t.hour >= 9 && t.hour <= 17 && w >= 1 && w <= 5; }},
  {"0-10/5 * * * *", "UTC", "2026-01-01T00:00:00Z", false, [](const CivilTime& t, int) { return t.minute <= 10 && t.minute % 5 == 0; }},
  {"15,45 */2 * * *", "UTC", "2026-01-01T00:00:00Z", false,
   [](const CivilTime& t, int) { return (t.minute == 15 || t.minute == 45) && t.hour % 2 == 0; }},
  {"0 0 1 * *", "UTC", "2026-01-15T00:00:00Z", true, [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 0 && t.date.day == 1; }},
  {"0 0 31 * *", "UTC", "2026-01-01T00:00:00Z", true, [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 0 && t.date.day == 31; }},
  {"0 12 * jan,jul *", "UTC", "2026-01-30T00:00:00Z", true,
   [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 12 && (t.date.month == 1 || t.date.month == 7); }},
  {"0 0 * * 0", "UTC", "2026-01-01T00:00:00Z", true, [](const CivilTime& t, int w) { return t.minute == 0 && t.hour == 0 && w == 0; }},
  {"0 0 * * 7", "UTC", "2026-01-01T00:00:00Z", true, [](const CivilTime& t, int w) { return t.minute == 0 && t.hour == 0 && w == 0; }},
  {"0 0 * * SUN", "UTC", "2026-01-01T00:00:00Z", true, [](const CivilTime& t, int w) { return t.minute == 0 && t.hour == 0 && w == 0; }},
  {"0 0 * * 5-7", "UTC", "2026-01-01T00:00:00Z", true,
   [](const CivilTime& t, int w) { return t.minute == 0 && t.hour == 0 && (w == 5 || w == 6 || w == 0); }},
  // Vixie: both day fields restricted, either matches.
  {"0 0 13 * fri", "UTC", "2026-01-01T00:00:00Z", true,
   [](const CivilTime& t, int w) { return t.minute == 0 && t.hour == 0 && (t.date.day == 13 || w == 5); }},
  {"0 0 1,15 * 1", "UTC", "2026-01-01T00:00:00Z", true,
   [](const CivilTime& t, int w) { return t.minute == 0 && t.hour == 0 && (t.date.day == 1 || t.date.day == 15 || w == 1); }},
  // A day field starting with '*' is not a restriction: both must match.
  {"0 0 */2 * mon", "UTC", "2026-01-01T00:00:00Z", true,
   [](const CivilTime& t, int w) { return t.minute == 0 && t.hour == 0 && t.date.day % 2 == 1 && w == 1; }},
  {"0 0 1-7 * *", "UTC", "2026-01-05T00:00:00Z", true, [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 0 && t.date.day <= 7; }},
  {"59 23 * * *", "UTC", "2026-12-30T00:00:00Z", true, [](const CivilTime& t, int) { return t.minute == 59 && t.hour == 23; }},
  {"0 0 * feb *", "UTC", "2028-02-26T00:00:00Z", true, [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 0 && t.date.month == 2; }},
  {"*/7 * * * *", "UTC", "2026-01-01T00:50:00Z", false, [](const CivilTime& t, int) { return t.minute % 7 == 0; }},
  {"0 0 1 */3 *", "UTC", "2026-01-02T00:00:00Z", true,
   [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 0 && t.date.day == 1 && (t.date.month - 1) % 3 == 0; }},
  {"@hourly", "UTC", "2026-01-01T00:00:00Z", false, [](const CivilTime& t, int) { return t.minute == 0; }},
  {"@daily", "UTC", "2026-01-01T00:00:00Z", true, [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 0; }},
  {"@midnight", "UTC", "2026-01-01T00:00:00Z", true, [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 0; }},
  {"@weekly", "UTC", "2026-01-01T00:00:00Z", true, [](const CivilTime& t, int w) { return t.minute == 0 && t.hour == 0 && w == 0; }},
  {"@monthly", "UTC", "2026-01-01T00:00:00Z", true, [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 0 && t.date.day == 1; }},
  {"@yearly", "UTC", "2026-01-01T00:00:00Z", true,
   [](const CivilTime& t, int) { return t.minute == 0 && t.hour == 0 && t.date.day == 1 && t.date.month == 1; }},
  // Across daylight-saving changes: fixed times move out of a gap and fire once in a fold ...
  {"30 2 * * *", "Europe/Berlin", "2026-03-26T00:00:00Z", true, [](const CivilTime& t, int) { return t.hour == 2 && t.minute == 30; }},
  {"30 2 * * *", "Europe/Berlin", "2026-10-22T00:00:00Z", true, [](const CivilTime& t, int) { return t.hour == 2 && t.minute == 30; }},
  {"0 2,3 * * *", "Europe/Berlin", "2026-03-27T00:00:00Z", true,
   [](const CivilTime& t, int) { return t.minute == 0 && (t.hour == 2 || t.hour == 3); }},
  {"0 9 * * mon-fri", "Europe/Berlin", "2026-03-26T00:00:00Z", true,
   [](const CivilTime& t, int w) { return t.hour == 9 && t.minute == 0 && w >= 1 && w <= 5; }},
  {"30 2 * * *", "America/New_York", "2026-03-06T00:00:00Z", true, [](const CivilTime& t, int) { return t.hour == 2 && t.minute == 30; }},
  {"30 1 * * *", "America/New_York", "2026-10-30T00:00:00Z", true, [](const CivilTime& t, int) { return t.hour == 1 && t.minute == 30; }},
  // ... while the wall clock's own pace skips a gap and runs a fold twice.
  {"*/30 * * * *", "Europe/Berlin", "2026-03-29T00:10:00Z", false, [](const CivilTime& t, int) { return t.minute % 30 == 0; }},
  {"*/30 * * * *", "Europe/Berlin", "2026-10-25T00:10:00Z", false, [](const CivilTime& t, int) { return t.minute % 30 == 0; }},
  {"15 * * * *", "America/New_York", "2026-11-01T04:00:00Z", false, [](const CivilTime& t, int) { return t.minute == 15; }},
  {"0-59/20 1-3 * * *", "America/New_York", "2026-03-08T05:30:00Z", false,
   [](const CivilTime& t, int) { return t.minute % 20 == 0 && t.hour >= 1 && t.hour <= 3; }},
  {"0 1 * * *", "America/New_York", "2026-10-30T00:00:00Z", true, [](const CivilTime& t, int) { return t.hour == 1 && t.minute == 0; }},
};
// clang-format on

const std::vector<const char*> k_invalid = {
    "",
    "* * * *",
    "* * * * * *",
    "60 * * * *",
    "* 24 * * *",
    "* * 0 * *",
    "* * 32 * *",
    "* * * 13 *",
    "* * * 0 *",
    "* * * * 8",
    "*/0 * * * *",
    "*/61 * * * *",
    "5/10 * * * *",
    "10-5 * * * *",
    "a * * * *",
    "* * * foo *",
    "* * * * funday",
    "1,,2 * * * *",
    "-5 * * * *",
    "1- * * * *",
    "@reboot",
    "@every 5m",
    "* * * jan-xyz *",
    "1.5 * * * *",
};

} // namespace

TEST_SUITE("mailroom::schedule::cron")
{
  TEST_CASE("the next five slots of each expression match an independent minute-by-minute search")
  {
    CHECK(k_rows.size() + k_invalid.size() >= 40);
    for (const Row& row : k_rows) {
      CAPTURE(row.expression);
      CAPTURE(row.zone);
      CAPTURE(row.start);
      auto parsed = mailroom::schedule::parse_cron(row.expression);
      REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
      CHECK(parsed->fixed_time == row.fixed);
      auto zone = Zone::load(row.zone);
      REQUIRE(zone.ok());
      const auto start = mailroom::mail::parse_rfc3339(row.start);
      REQUIRE(start.has_value());
      Rule rule;
      rule.kind = Rule::Kind::cron;
      rule.cron = *parsed;
      std::vector<Millis> evaluated;
      Millis after = *start;
      for (int i = 0; i < 5; ++i) {
        const auto slot = next_slot(rule, *zone, after);
        REQUIRE(slot.has_value());
        evaluated.push_back(*slot);
        after = *slot;
      }
      CHECK(evaluated == brute_force(row, *zone, *start, 5));
    }
  }

  TEST_CASE("invalid expressions name what is wrong")
  {
    for (const char* text : k_invalid) {
      CAPTURE(text);
      auto parsed = mailroom::schedule::parse_cron(text);
      REQUIRE_FALSE(parsed.ok());
      CHECK(parsed.error().code == mailroom::ErrorCode::usage);
      CHECK(parsed.error().message.find("invalid cron expression") == 0);
      CHECK_FALSE(parsed.error().hint.empty());
    }
    auto minute = mailroom::schedule::parse_cron("61 * * * *");
    REQUIRE_FALSE(minute.ok());
    CHECK(minute.error().message ==
          "invalid cron expression \"61 * * * *\": minute \"61\" is out of range 0-59");
    auto weekday = mailroom::schedule::parse_cron("0 9 * * funday");
    REQUIRE_FALSE(weekday.ok());
    CHECK(
        weekday.error().message ==
        "invalid cron expression \"0 9 * * funday\": day-of-week \"funday\" is neither a number nor a name");
  }

  TEST_CASE("an expression that names no real day never fires")
  {
    auto never = mailroom::schedule::parse_cron("0 0 30 2 *");
    REQUIRE(never.ok());
    Rule rule;
    rule.kind = Rule::Kind::cron;
    rule.cron = *never;
    CHECK_FALSE(next_slot(rule, Zone::utc(), 0).has_value());
    auto leap = mailroom::schedule::parse_cron("0 0 29 2 *");
    REQUIRE(leap.ok());
    rule.cron = *leap;
    CHECK(next_slot(rule, Zone::utc(), *mailroom::mail::parse_rfc3339("2026-01-01T00:00:00Z")) ==
          mailroom::mail::parse_rfc3339("2028-02-29T00:00:00Z"));
  }
}
