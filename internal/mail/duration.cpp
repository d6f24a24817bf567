#include "mail/duration.hpp"

#include <chrono>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::mail {

namespace {

constexpr Millis k_max_duration_ms = 100LL * 365 * k_day_ms;

// Reads exactly `count` digits at text[pos], advancing pos.
std::optional<int> digits(std::string_view text, std::size_t& pos, std::size_t count)
{
  if (pos + count > text.size()) {
    return std::nullopt;
  }
  int value = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    value = value * 10 + (c - '0');
  }
  pos += count;
  return value;
}

bool expect(std::string_view text, std::size_t& pos, std::string_view options)
{
  if (pos < text.size() && options.find(text[pos]) != std::string_view::npos) {
    ++pos;
    return true;
  }
  return false;
}

Error bad_duration(std::string_view text, std::string_view what)
{
  return make_error(ErrorCode::usage,
                    fmt::format("invalid duration \"{}\" for {}", text::cap_for_echo(text), what),
                    "write a number with ms, s, m, h or d, e.g. 500ms, 30s, 10m, 2h, 7d");
}

} // namespace

Result<Millis> parse_duration(std::string_view text, std::string_view what)
{
  std::size_t pos = 0;
  std::int64_t value = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    if (value > k_max_duration_ms) {
      return bad_duration(text, what);
    }
    value = value * 10 + (text[pos] - '0');
    ++pos;
  }
  if (pos == 0) {
    return bad_duration(text, what);
  }
  const std::string_view unit = text.substr(pos);
  Millis scale = 0;
  if (unit.empty() || unit == "s") {
    scale = k_second_ms;
  } else if (unit == "ms") {
    scale = 1;
  } else if (unit == "m") {
    scale = k_minute_ms;
  } else if (unit == "h") {
    scale = k_hour_ms;
  } else if (unit == "d") {
    scale = k_day_ms;
  } else {
    return bad_duration(text, what);
  }
  if (value > k_max_duration_ms / scale) {
    return make_error(ErrorCode::usage, fmt::format("duration \"{}\" for {} is too long (at most 100 years)",
                                                    text::cap_for_echo(text), what));
  }
  return value * scale;
}

std::string format_duration(Millis ms)
{
  if (ms < k_second_ms) {
    return fmt::format("{}ms", ms);
  }
  struct Unit {
    Millis size;
    const char* name;
  };
  constexpr Unit k_units[] = {{k_day_ms, "d"}, {k_hour_ms, "h"}, {k_minute_ms, "m"}, {k_second_ms, "s"}};
  std::string out;
  Millis rest = ms;
  for (const Unit& unit : k_units) {
    if (rest >= unit.size) {
      out += fmt::format("{}{}", rest / unit.size, unit.name);
      rest %= unit.size;
    }
  }
  if (rest > 0) {
    out += fmt::format("{}ms", rest);
  }
  return out;
}

Result<UnixMillis> parse_time_or_age(std::string_view text, UnixMillis now, std::string_view what)
{
  if (const auto when = parse_rfc3339(text)) {
    return *when;
  }
  if (text.size() == 10) {
    if (const auto day = parse_rfc3339(fmt::format("{}T00:00:00Z", text))) {
      return *day;
    }
  }
  auto age = parse_duration(text, what);
  if (!age.ok()) {
    return make_error(ErrorCode::usage,
                      fmt::format("invalid time \"{}\" for {}", text::cap_for_echo(text), what),
                      "give a duration ago (30m, 2h, 7d), a date (2026-11-23) or an RFC 3339 time");
  }
  return now - *age;
}

std::optional<UnixMillis> parse_rfc3339(std::string_view text)
{
  std::size_t pos = 0;
  const auto year = digits(text, pos, 4);
  if (!year || !expect(text, pos, "-")) {
    return std::nullopt;
  }
  const auto month = digits(text, pos, 2);
  if (!month || !expect(text, pos, "-")) {
    return std::nullopt;
  }
  const auto day = digits(text, pos, 2);
  if (!day || !expect(text, pos, "Tt")) {
    return std::nullopt;
  }
  const auto hour = digits(text, pos, 2);
  if (!hour || !expect(text, pos, ":")) {
    return std::nullopt;
  }
  const auto minute = digits(text, pos, 2);
  if (!minute || !expect(text, pos, ":")) {
    return std::nullopt;
  }
  const auto second = digits(text, pos, 2);
  if (!second || *hour > 23 || *minute > 59 || *second > 59) {
    return std::nullopt;
  }
  std::int64_t millis = 0;
  if (expect(text, pos, ".,")) {
    const std::size_t start = pos;
    std::int64_t scale = 100;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      millis += (text[pos] - '0') * scale;
      scale /= 10;
      ++pos;
    }
    if (pos == start) {
      return std::nullopt;
    }
  }
  std::int64_t offset_minutes = 0;
  if (!expect(text, pos, "Zz")) {
    const bool negative = pos < text.size() && text[pos] == '-';
    if (!expect(text, pos, "+-")) {
      return std::nullopt;
    }
    const auto offset_hours = digits(text, pos, 2);
    if (!offset_hours || !expect(text, pos, ":")) {
      return std::nullopt;
    }
    const auto offset_mins = digits(text, pos, 2);
    if (!offset_mins || *offset_hours > 23 || *offset_mins > 59) {
      return std::nullopt;
    }
    offset_minutes = (*offset_hours * 60 + *offset_mins) * (negative ? -1 : 1);
  }
  if (pos != text.size()) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year{*year},
                                         std::chrono::month{static_cast<unsigned>(*month)},
                                         std::chrono::day{static_cast<unsigned>(*day)}};
  if (!date.ok()) {
    return std::nullopt;
  }
  const std::int64_t days = std::chrono::sys_days{date}.time_since_epoch().count();
  const std::int64_t seconds = days * 86400 + *hour * 3600 + *minute * 60 + *second - offset_minutes * 60;
  return seconds * 1000 + millis;
}

} // namespace mailroom::mail
