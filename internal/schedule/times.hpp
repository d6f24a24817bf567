#pragma once

// Times and zones as a schedule's user writes them (contract "Schedules", decisions "Zones and
// times"): which zone a schedule is in, and what a TIME (--at, --start, --until) means in it.

#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "schedule/rule.hpp"
#include "schedule/zone.hpp"

namespace mailroom::schedule {

// Where a schedule's zone may come from, first present wins: --tz, [schedule] timezone, $TZ
// (when it names an IANA zone; a leading ':' is dropped), the system's zone (/etc/localtime's
// link, else /etc/timezone), else UTC.
struct ZoneSources {
  std::optional<std::string> flag;   // --tz
  std::optional<std::string> config; // [schedule] timezone
  std::optional<std::string> env_tz; // $TZ
  std::string directory = std::string(k_zoneinfo_dir);
  std::string localtime_link = "/etc/localtime";
  std::string timezone_file = "/etc/timezone";
};

// The zone the sources choose. Errors: usage for a --tz or [schedule] timezone that is no zone,
// and for a $TZ that is not an IANA zone name (a POSIX rule such as CET-1CEST), asking for --tz.
Result<Zone> choose_zone(const ZoneSources& sources);

// What a TIME may be besides RFC 3339 and a wall-clock time in the zone.
enum class TimeForm {
  time_only,     // --at
  time_or_delay, // --start, --until: also a duration from now (90m)
};

// `text` as a TIME for option `what` ("--at") in `zone` at `now`: RFC 3339 with an offset;
// `YYYY-MM-DD HH:MM[:SS]` (or with `T`) in the zone; `HH:MM[:SS]`, its next occurrence (today or
// tomorrow); with time_or_delay, a duration counted from now. Errors: usage for a malformed
// time, a full date or RFC 3339 time not after `now`, and a wall-clock time the zone skips (a
// daylight-saving gap) or repeats (a fold), naming the UTC instants.
Result<Millis> parse_time(std::string_view text, const Zone& zone, Millis now, std::string_view what,
                          TimeForm form);

// `utc` (seconds) as "2026-03-29T01:00:00Z".
std::string format_utc(Seconds utc);
// The wall-clock time of `utc` in `zone` as "2026-03-29 03:00".
std::string format_wall(const Zone& zone, Seconds utc);

} // namespace mailroom::schedule
