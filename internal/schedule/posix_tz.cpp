#include "schedule/posix_tz.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace mailroom::schedule {

namespace {

class Reader {
public:
  explicit Reader(std::string_view text) : m_text(text) {}

  bool done() const { return m_pos == m_text.size(); }
  char peek() const { return done() ? '\0' : m_text[m_pos]; }
  bool take(char c)
  {
    if (peek() == c) {
      ++m_pos;
      return true;
    }
    return false;
  }

  // An abbreviation: three or more letters, or <…> of letters, digits, '+' and '-'.
  std::optional<std::string> abbrev()
  {
    std::string out;
    if (take('<')) {
      while (!done() && peek() != '>') {
        const char c = peek();
        if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '+' && c != '-') {
          return std::nullopt;
        }
        out += c;
        ++m_pos;
      }
      if (!take('>') || out.size() < 3) {
        return std::nullopt;
      }
      return out;
    }
    while (!done() && std::isalpha(static_cast<unsigned char>(peek())) != 0) {
      out += peek();
      ++m_pos;
    }
    if (out.size() < 3) {
      return std::nullopt;
    }
    return out;
  }

  std::optional<int> number(int max)
  {
    if (std::isdigit(static_cast<unsigned char>(peek())) == 0) {
      return std::nullopt;
    }
    int value = 0;
    while (std::isdigit(static_cast<unsigned char>(peek())) != 0) {
      value = value * 10 + (peek() - '0');
      if (value > max) {
        return std::nullopt;
      }
      ++m_pos;
    }
    return value;
  }

  // [+-]hh[:mm[:ss]], hours up to `max_hours`.
  std::optional<Seconds> clock(int max_hours)
  {
    int sign = 1;
    if (take('-')) {
      sign = -1;
    } else {
      take('+');
    }
    const auto hours = number(max_hours);
    if (!hours) {
      return std::nullopt;
    }
    Seconds total = *hours * k_hour_s;
    if (take(':')) {
      const auto minutes = number(59);
      if (!minutes) {
        return std::nullopt;
      }
      total += *minutes * k_minute_s;
      if (take(':')) {
        const auto seconds = number(59);
        if (!seconds) {
          return std::nullopt;
        }
        total += *seconds;
      }
    }
    return sign * total;
  }

  std::optional<PosixDate> date()
  {
    PosixDate date;
    if (take('M')) {
      date.kind = PosixDate::Kind::month_week_day;
      const auto month = number(12);
      if (!month || *month < 1 || !take('.')) {
        return std::nullopt;
      }
      const auto week = number(5);
      if (!week || *week < 1 || !take('.')) {
        return std::nullopt;
      }
      const auto day = number(6);
      if (!day) {
        return std::nullopt;
      }
      date.month = *month;
      date.week = *week;
      date.day = *day;
    } else if (take('J')) {
      date.kind = PosixDate::Kind::julian_no_leap;
      const auto day = number(365);
      if (!day || *day < 1) {
        return std::nullopt;
      }
      date.day = *day;
    } else {
      date.kind = PosixDate::Kind::zero_based;
      const auto day = number(365);
      if (!day) {
        return std::nullopt;
      }
      date.day = *day;
    }
    if (take('/')) {
      const auto time = clock(167);
      if (!time) {
        return std::nullopt;
      }
      date.time = *time;
    }
    return date;
  }

private:
  std::string_view m_text;
  std::size_t m_pos = 0;
};

// The wall-clock second at which `date` falls in `year`.
Seconds wall_of(const PosixDate& date, std::int64_t year)
{
  std::int64_t days = 0;
  switch (date.kind) {
  case PosixDate::Kind::julian_no_leap: {
    days = days_from_date(Date{year, 1, 1}) + date.day - 1;
    if (is_leap_year(year) && date.day >= 60) {
      ++days; // day 60 is 1 March, whatever the year
    }
    break;
  }
  case PosixDate::Kind::zero_based:
    days = days_from_date(Date{year, 1, 1}) + date.day;
    break;
  case PosixDate::Kind::month_week_day: {
    const std::int64_t first = days_from_date(Date{year, date.month, 1});
    const int first_weekday = weekday_of_days(first);
    std::int64_t day = first + (date.day - first_weekday + 7) % 7 + (date.week - 1) * 7;
    const std::int64_t after_month = first + days_in_month(year, date.month);
    while (day >= after_month) {
      day -= 7; // week 5 means the last such day
    }
    days = day;
    break;
  }
  }
  return days * k_day_s + date.time;
}

// The UTC instants daylight time starts and ends in `year`.
std::array<Seconds, 2> transitions_in(const PosixTz& tz, std::int64_t year)
{
  const PosixTz::Daylight& d = *tz.daylight;
  return {wall_of(d.start, year) - tz.std_offset, wall_of(d.end, year) - d.offset};
}

std::int64_t year_of(Seconds utc, Seconds offset)
{
  return civil_from_seconds(utc + offset).date.year;
}

} // namespace

Seconds PosixTz::offset_at(Seconds utc, bool* dst) const
{
  bool in_daylight = false;
  if (daylight) {
    const auto [start, end] = transitions_in(*this, year_of(utc, std_offset));
    if (start < end) {
      in_daylight = utc >= start && utc < end;
    } else {
      in_daylight = utc >= start || utc < end; // the southern hemisphere: daylight across new year
    }
  }
  if (dst != nullptr) {
    *dst = in_daylight;
  }
  return in_daylight ? daylight->offset : std_offset;
}

std::optional<Seconds> PosixTz::next_transition(Seconds utc) const
{
  if (!daylight) {
    return std::nullopt;
  }
  const std::int64_t year = year_of(utc, std_offset);
  std::optional<Seconds> next;
  for (std::int64_t y = year - 1; y <= year + 1; ++y) {
    for (const Seconds at : transitions_in(*this, y)) {
      if (at > utc && (!next || at < *next)) {
        next = at;
      }
    }
  }
  // A rule whose daylight lasts all year (start on day 0 at 0:00, end after the year) changes
  // nothing at its "transitions"; the caller treats a transition as a possible change only.
  return next;
}

std::optional<PosixTz> parse_posix_tz(std::string_view text)
{
  Reader in(text);
  PosixTz tz;
  auto std_abbrev = in.abbrev();
  if (!std_abbrev) {
    return std::nullopt;
  }
  tz.std_abbrev = std::move(*std_abbrev);
  const auto std_west = in.clock(24);
  if (!std_west) {
    return std::nullopt;
  }
  tz.std_offset = -*std_west;
  if (in.done()) {
    return tz;
  }
  PosixTz::Daylight daylight;
  auto dst_abbrev = in.abbrev();
  if (!dst_abbrev) {
    return std::nullopt;
  }
  daylight.abbrev = std::move(*dst_abbrev);
  daylight.offset = tz.std_offset + k_hour_s;
  if (in.peek() != ',' && !in.done()) {
    const auto dst_west = in.clock(24);
    if (!dst_west) {
      return std::nullopt;
    }
    daylight.offset = -*dst_west;
  }
  if (!in.take(',')) {
    return std::nullopt; // no rule: RFC 8536 leaves it to the implementation; refuse it
  }
  auto start = in.date();
  if (!start || !in.take(',')) {
    return std::nullopt;
  }
  auto end = in.date();
  if (!end || !in.done()) {
    return std::nullopt;
  }
  daylight.start = *start;
  daylight.end = *end;
  tz.daylight = std::move(daylight);
  return tz;
}

} // namespace mailroom::schedule
