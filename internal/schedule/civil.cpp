#include "schedule/civil.hpp"

namespace mailroom::schedule {

// Dates are counted in 400-year eras of 146,097 days, each starting on a 1 March so that the
// leap day is the last day of a year; the month arithmetic is then the same every year.

std::int64_t days_from_date(const Date& date)
{
  const std::int64_t year = date.month <= 2 ? date.year - 1 : date.year;
  const std::int64_t era = floor_div(year, 400);
  const std::int64_t year_of_era = year - era * 400;                                      // 0..399
  const std::int64_t month_from_march = date.month > 2 ? date.month - 3 : date.month + 9; // 0..11
  const std::int64_t day_of_year = (153 * month_from_march + 2) / 5 + date.day - 1;       // 0..365
  const std::int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  constexpr std::int64_t k_days_to_1970_from_0000_03_01 = 719468;
  return era * 146097 + day_of_era - k_days_to_1970_from_0000_03_01;
}

Date date_from_days(std::int64_t days)
{
  const std::int64_t shifted = days + 719468;
  const std::int64_t era = floor_div(shifted, 146097);
  const std::int64_t day_of_era = shifted - era * 146097; // 0..146096
  const std::int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365; // 0..399
  const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const std::int64_t month_from_march = (5 * day_of_year + 2) / 153;
  Date date;
  date.day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  date.month = static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  date.year = year_of_era + era * 400 + (date.month <= 2 ? 1 : 0);
  return date;
}

int weekday_of_days(std::int64_t days)
{
  // 1970-01-01 was a Thursday (4).
  const std::int64_t shifted = (days + 4) % 7;
  return static_cast<int>(shifted < 0 ? shifted + 7 : shifted);
}

bool is_leap_year(std::int64_t year)
{
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_month(std::int64_t year, int month)
{
  constexpr int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && is_leap_year(year)) {
    return 29;
  }
  return k_days[month - 1];
}

Seconds seconds_from_civil(const CivilTime& time)
{
  return days_from_date(time.date) * k_day_s + time.hour * k_hour_s + time.minute * k_minute_s + time.second;
}

CivilTime civil_from_seconds(Seconds wall)
{
  const std::int64_t days = floor_div(wall, k_day_s);
  Seconds rest = wall - days * k_day_s;
  CivilTime time;
  time.date = date_from_days(days);
  time.hour = static_cast<int>(rest / k_hour_s);
  rest %= k_hour_s;
  time.minute = static_cast<int>(rest / k_minute_s);
  time.second = static_cast<int>(rest % k_minute_s);
  return time;
}

} // namespace mailroom::schedule
