#pragma once

// The POSIX TZ rule a TZif file ends with (RFC 8536 section 3.3), which says what the offset is
// after the file's last transition: `CET-1CEST,M3.5.0,M10.5.0/3` is one hour east of UTC, and
// two from 02:00 on the last Sunday of March to 03:00 (daylight time) on the last Sunday of
// October. Parsed once per zone; asked per instant.

#include <optional>
#include <string>
#include <string_view>

#include "schedule/civil.hpp"

namespace mailroom::schedule {

// One end of daylight time in a year: a day and the wall-clock time on it (which may be
// negative or past 24 hours, RFC 8536's extension).
struct PosixDate {
  enum class Kind {
    julian_no_leap, // Jn: day n of 365, 29 February never counted
    zero_based,     // n: day n from 0, 29 February counted
    month_week_day, // Mm.w.d: day d (0 Sunday) of week w (5: the last) of month m
  };
  Kind kind = Kind::month_week_day;
  int day = 0;   // Jn and n: n; Mm.w.d: d
  int week = 0;  // Mm.w.d: w
  int month = 0; // Mm.w.d: m
  Seconds time = 2 * k_hour_s;
};

struct PosixTz {
  Seconds std_offset = 0; // seconds east of UTC (the TZ string writes them west)
  std::string std_abbrev;
  struct Daylight {
    Seconds offset = 0;
    std::string abbrev;
    PosixDate start;
    PosixDate end;
  };
  std::optional<Daylight> daylight;

  // The offset in effect at the UTC instant `utc`, and whether it is daylight time.
  Seconds offset_at(Seconds utc, bool* dst = nullptr) const;
  // The first instant after `utc` at which the offset changes; nullopt without daylight time.
  std::optional<Seconds> next_transition(Seconds utc) const;
};

// Parses `text`; nullopt when it is not a POSIX TZ rule (an empty string is not one either). A
// rule with daylight time must say when it starts and ends.
std::optional<PosixTz> parse_posix_tz(std::string_view text);

} // namespace mailroom::schedule
