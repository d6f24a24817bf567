#pragma once

// Cron expressions (contract "Schedules"): five fields — minute hour day-of-month month
// day-of-week — each `*`, a value, a range `a-b`, a step `*/n` or `a-b/n`, or a list of those;
// months and weekdays also by name (`jan`, `mon`; day 7 is Sunday, as 0), and the shorthands
// @hourly, @daily (@midnight), @weekly, @monthly, @yearly (@annually). Day-of-month and
// day-of-week combine as Vixie cron does: when both fields are restricted (neither starts with
// `*`), a day matching either matches; otherwise a day must match both.
//
// This file knows nothing of zones: it matches wall-clock minutes (civil.hpp). What happens
// around a daylight-saving change is the rule's (rule.hpp), which asks `fixed_time`.

#include <bitset>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "schedule/civil.hpp"

namespace mailroom::schedule {

struct CronExpr {
  std::bitset<60> minutes;
  std::bitset<24> hours;
  std::bitset<32> days;       // 1..31
  std::bitset<13> months;     // 1..12
  std::bitset<7> weekdays;    // 0 (Sunday) .. 6
  bool days_star = false;     // the day-of-month field starts with `*`
  bool weekdays_star = false; // the day-of-week field starts with `*`
  // Minute and hour are values or lists of values (no `*`, range or step): the times of day are
  // fixed, which decides how a daylight-saving change treats them (rule.hpp).
  bool fixed_time = false;

  // Whether the date (whose weekday is `weekday`, 0 Sunday) is a day this expression runs on.
  bool matches_day(const Date& date, int weekday) const;
  // Whether the wall-clock minute of `time` matches.
  bool matches(const CivilTime& time) const;
  // The first wall-clock minute at or after `wall` and before `limit` that matches; nullopt when
  // none does.
  std::optional<Seconds> next_match(Seconds wall, Seconds limit) const;
};

// Parses `text`. Errors: usage naming the expression and the offending field and part, with a
// hint showing the form.
Result<CronExpr> parse_cron(std::string_view text);

} // namespace mailroom::schedule
