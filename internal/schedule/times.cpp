#include "schedule/times.hpp"

#include <array>
#include <cerrno>

#include <fmt/format.h>
#include <unistd.h>

#include "mail/duration.hpp"
#include "text/strings.hpp"
#include "util/file_read.hpp"

namespace mailroom::schedule {

namespace {

constexpr std::string_view k_time_hint =
    "give RFC 3339 (2026-12-02T09:00:00+01:00), YYYY-MM-DD HH:MM or HH:MM in the schedule's zone";

std::optional<int> number(std::string_view text, std::size_t at, std::size_t count)
{
  if (at + count > text.size()) {
    return std::nullopt;
  }
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return std::nullopt;
    }
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// "HH:MM" or "HH:MM:SS" at the end of `text` from `at`: seconds of the day.
std::optional<Seconds> clock_of(std::string_view text, std::size_t at)
{
  const auto hour = number(text, at, 2);
  const auto minute = number(text, at + 3, 2);
  if (!hour || !minute || text.size() < at + 5 || text[at + 2] != ':' || *hour > 23 || *minute > 59) {
    return std::nullopt;
  }
  int second = 0;
  if (text.size() == at + 8 && text[at + 5] == ':') {
    const auto s = number(text, at + 6, 2);
    if (!s || *s > 59) {
      return std::nullopt;
    }
    second = *s;
  } else if (text.size() != at + 5) {
    return std::nullopt;
  }
  return *hour * k_hour_s + *minute * k_minute_s + second;
}

// "YYYY-MM-DD" followed by ' ' or 'T' and a clock: wall-clock seconds.
std::optional<Seconds> wall_seconds_of(std::string_view text)
{
  const auto year = number(text, 0, 4);
  const auto month = number(text, 5, 2);
  const auto day = number(text, 8, 2);
  if (!year || !month || !day || text.size() < 11 || text[4] != '-' || text[7] != '-' ||
      (text[10] != ' ' && text[10] != 'T') || *month < 1 || *month > 12 || *day < 1 ||
      *day > days_in_month(*year, *month)) {
    return std::nullopt;
  }
  const auto clock = clock_of(text, 11);
  if (!clock) {
    return std::nullopt;
  }
  return days_from_date(Date{*year, *month, *day}) * k_day_s + *clock;
}

std::string wall_text(Seconds wall)
{
  const CivilTime c = civil_from_seconds(wall);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}", c.date.year, c.date.month, c.date.day, c.hour,
                     c.minute);
}

// The one instant `wall` stands for in `zone`. Errors: usage in a gap or a fold.
Result<Seconds> single_instant(const Zone& zone, Seconds wall, std::string_view what)
{
  const WallInstants at = zone.instants_of(wall);
  if (at.count == 1) {
    return at.first;
  }
  if (at.count == 2) {
    return make_error(
        ErrorCode::usage,
        fmt::format("{} {} is ambiguous in {}: the clocks pass it twice, at {} ({}) and at {} ({})", what,
                    wall_text(wall), zone.name(), format_utc(at.first), zone.abbreviation_at(at.first),
                    format_utc(at.second), zone.abbreviation_at(at.second)),
        "give an RFC 3339 time with its offset, or another time");
  }
  return make_error(ErrorCode::usage,
                    fmt::format("{} {} does not exist in {}: the clocks jump from {} to {} at {}", what,
                                wall_text(wall), zone.name(),
                                wall_text(at.gap_end + zone.offset_at(at.gap_end - 1)),
                                wall_text(zone.wall_of(at.gap_end)), format_utc(at.gap_end)),
                    "give a time outside the jump, or an RFC 3339 time with its offset");
}

Error past(std::string_view what, std::string_view text, Millis when)
{
  return make_error(ErrorCode::usage,
                    fmt::format("{} \"{}\" ({}) is in the past", what, text::cap_for_echo(text),
                                format_utc(floor_div(when, 1000))),
                    "give a later time, or a time of day (HH:MM) for its next occurrence");
}

Result<Zone> named_zone(const std::string& name, const ZoneSources& sources, std::string_view where)
{
  auto zone = Zone::load(name, sources.directory);
  if (!zone.ok()) {
    Error error = std::move(zone).error();
    error.message = fmt::format("{}: {}", where, error.message);
    return error;
  }
  return zone;
}

std::optional<std::string> system_zone_name(const ZoneSources& sources)
{
  std::array<char, 4096> target{};
  const ssize_t length = ::readlink(sources.localtime_link.c_str(), target.data(), target.size() - 1);
  if (length > 0) {
    const std::string_view link(target.data(), static_cast<std::size_t>(length));
    constexpr std::string_view k_marker = "zoneinfo/";
    if (const auto at = link.rfind(k_marker); at != std::string_view::npos) {
      std::string name(link.substr(at + k_marker.size()));
      for (const std::string_view prefix : {"posix/", "right/"}) {
        if (name.rfind(prefix, 0) == 0) {
          name.erase(0, prefix.size());
        }
      }
      return name;
    }
  }
  if (const auto file = util::read_file(sources.timezone_file, 4096)) {
    const std::string name = text::trim(*file);
    if (!name.empty()) {
      return name;
    }
  }
  return std::nullopt;
}

} // namespace

std::string format_utc(Seconds utc)
{
  const CivilTime c = civil_from_seconds(utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", c.date.year, c.date.month, c.date.day, c.hour,
                     c.minute, c.second);
}

std::string format_wall(const Zone& zone, Seconds utc)
{
  return wall_text(zone.wall_of(utc));
}

Result<Zone> choose_zone(const ZoneSources& sources)
{
  if (sources.flag) {
    return named_zone(*sources.flag, sources, "--tz");
  }
  if (sources.config) {
    return named_zone(*sources.config, sources, "[schedule] timezone");
  }
  if (sources.env_tz && !sources.env_tz->empty()) {
    std::string name = *sources.env_tz;
    if (name.front() == ':') {
      name.erase(0, 1);
    }
    const std::string prefix = sources.directory + "/";
    if (name.rfind(prefix, 0) == 0) {
      name.erase(0, prefix.size());
    }
    if (is_zone_name(name)) {
      if (auto zone = Zone::load(name, sources.directory); zone.ok()) {
        return zone;
      }
    }
    return make_error(
        ErrorCode::usage,
        fmt::format("TZ=\"{}\" does not name an IANA time zone", text::cap_for_echo(*sources.env_tz)),
        "give the schedule's zone with --tz (e.g. --tz Europe/Berlin), or set [schedule] timezone");
  }
  if (const auto name = system_zone_name(sources)) {
    if (auto zone = Zone::load(*name, sources.directory); zone.ok()) {
      return zone;
    }
  }
  return Zone::utc();
}

Result<Millis> parse_time(std::string_view text, const Zone& zone, Millis now, std::string_view what,
                          TimeForm form)
{
  const Seconds now_s = floor_div(now, 1000);
  if (const auto absolute = mail::parse_rfc3339(text)) {
    if (*absolute <= now) {
      return past(what, text, *absolute);
    }
    return *absolute;
  }
  if (const auto wall = wall_seconds_of(text)) {
    TRY_ASSIGN(const Seconds instant, single_instant(zone, *wall, what));
    if (instant * 1000 <= now) {
      return past(what, text, instant * 1000);
    }
    return instant * 1000;
  }
  if (const auto clock = clock_of(text, 0)) {
    // Its next occurrence: today's, else tomorrow's.
    const std::int64_t today = floor_div(zone.wall_of(now_s), k_day_s);
    for (std::int64_t day = today; day <= today + 1; ++day) {
      TRY_ASSIGN(const Seconds instant, single_instant(zone, day * k_day_s + *clock, what));
      if (instant * 1000 > now) {
        return instant * 1000;
      }
    }
  }
  if (form == TimeForm::time_or_delay && !text.empty() && text.front() >= '0' && text.front() <= '9') {
    auto delay = mail::parse_duration(text, what);
    if (delay.ok()) {
      if (*delay <= 0) {
        return make_error(ErrorCode::usage, fmt::format("{} \"{}\" must be longer than 0", what, text));
      }
      return now + *delay;
    }
  }
  return make_error(
      ErrorCode::usage, fmt::format("invalid time \"{}\" for {}", text::cap_for_echo(text), what),
      form == TimeForm::time_or_delay ? std::string(k_time_hint) + ", or a duration from now (90m)"
                                      : std::string(k_time_hint));
}

} // namespace mailroom::schedule
