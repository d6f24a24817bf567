// The times mailroom prints (render.hpp): local for people, RFC 3339 UTC for JSON, ages.

#include <cstdlib>
#include <ctime>

#include <fmt/format.h>

#include "render/render.hpp"

namespace mailroom::render {

namespace {

std::tm local_tm(UnixMillis when)
{
  const std::time_t seconds = static_cast<std::time_t>(when / 1000);
  std::tm tm{};
  localtime_r(&seconds, &tm);
  return tm;
}

// "YYYY-MM-DD HH:MM[:SS] ZONE" in the local zone ($TZ); the zone is its abbreviation ("UTC",
// "CEST"), or the numeric offset when the zone has none.
std::string format_local(UnixMillis when, bool seconds)
{
  const std::tm tm = local_tm(when);
  std::string out = fmt::format("{:04}-{:02}-{:02} {:02}:{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                                tm.tm_hour, tm.tm_min);
  if (seconds) {
    out += fmt::format(":{:02}", tm.tm_sec);
  }
  if (tm.tm_zone != nullptr && tm.tm_zone[0] != '\0') {
    return out + " " + tm.tm_zone;
  }
  const long offset = tm.tm_gmtoff / 60;
  return out +
         fmt::format(" {}{:02}{:02}", offset < 0 ? '-' : '+', std::labs(offset) / 60, std::labs(offset) % 60);
}

} // namespace

std::string format_sent(UnixMillis when)
{
  return format_local(when, true);
}

std::string format_sent_short(UnixMillis when)
{
  return format_local(when, false);
}

std::string format_rfc3339(UnixMillis when)
{
  // Floor division, so times before 1970 keep a non-negative millisecond part.
  const std::int64_t millis = ((when % 1000) + 1000) % 1000;
  const std::time_t seconds = static_cast<std::time_t>((when - millis) / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
}

std::string format_age(UnixMillis when, UnixMillis now)
{
  const std::int64_t seconds = (now - when) / 1000;
  if (seconds < 60) {
    return "just now";
  }
  if (seconds < 3600) {
    return fmt::format("{}m ago", seconds / 60);
  }
  if (seconds < 86400) {
    return fmt::format("{}h ago", seconds / 3600);
  }
  return fmt::format("{}d ago", seconds / 86400);
}

} // namespace mailroom::render
