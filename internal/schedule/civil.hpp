#pragma once

// Civil (proleptic Gregorian) dates and wall-clock times as plain numbers, with no zone: the
// arithmetic a time zone (zone.hpp) and a cron expression (cron.hpp) are written on. A wall-clock
// time is counted in seconds from 1970-01-01 00:00 of the same calendar, as if it were UTC.

#include <cstdint>

namespace mailroom::schedule {

using Seconds = std::int64_t;

inline constexpr Seconds k_minute_s = 60;
inline constexpr Seconds k_hour_s = 60 * k_minute_s;
inline constexpr Seconds k_day_s = 24 * k_hour_s;

struct Date {
  std::int64_t year = 1970;
  int month = 1; // 1..12
  int day = 1;   // 1..31
};

// A wall-clock time broken into its fields.
struct CivilTime {
  Date date;
  int hour = 0;   // 0..23
  int minute = 0; // 0..59
  int second = 0; // 0..59
};

// Days from 1970-01-01 to `date` (negative before it).
std::int64_t days_from_date(const Date& date);
// The date `days` after 1970-01-01.
Date date_from_days(std::int64_t days);
// 0 = Sunday … 6 = Saturday, of the date `days` after 1970-01-01.
int weekday_of_days(std::int64_t days);
bool is_leap_year(std::int64_t year);
int days_in_month(std::int64_t year, int month);

// `floor(a / b)` for b > 0, rounding toward minus infinity.
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The wall-clock seconds of `time`, and back.
Seconds seconds_from_civil(const CivilTime& time);
CivilTime civil_from_seconds(Seconds wall);

} // namespace mailroom::schedule
