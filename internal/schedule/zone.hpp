#pragma once

// A time zone read from the system's TZif files (RFC 8536; Debian's tzdata under
// /usr/share/zoneinfo): its offset at any instant, the instants at which the offset changes, and
// the instants a wall-clock time stands for (none in a daylight-saving gap, two in a fold).
// Written here because GCC 12's standard library has no std::chrono::get_tzdb. Version 2+ files
// are read through their 64-bit data, and instants after the last listed transition follow the
// file's POSIX TZ rule (posix_tz.hpp).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "schedule/civil.hpp"
#include "schedule/posix_tz.hpp"

namespace mailroom::schedule {

inline constexpr std::string_view k_zoneinfo_dir = "/usr/share/zoneinfo";

// The instants a wall-clock time stands for in a zone.
struct WallInstants {
  int count = 0;       // 0: in a gap; 1; 2: in a fold (first and second pass)
  Seconds first = 0;   // count >= 1: the earlier instant
  Seconds second = 0;  // count == 2: the later one
  Seconds gap_end = 0; // count == 0: the instant the clocks jumped over it (its first valid time)
};

class Zone {
public:
  // UTC, with no file.
  static Zone utc();
  // The zone `name` (an IANA name such as "Europe/Berlin") from `directory`. Errors: usage for a
  // name that is not a zone there (malformed, absent, not a TZif file, or one with leap seconds).
  static Result<Zone> load(std::string_view name, std::string_view directory = k_zoneinfo_dir);
  // The zone in `bytes`, a TZif file, named `name`. Errors: usage as load.
  static Result<Zone> parse(std::string_view name, std::string_view bytes);

  const std::string& name() const { return m_name; }
  // Seconds east of UTC in effect at `utc`.
  Seconds offset_at(Seconds utc) const;
  // The abbreviation ("CEST") in effect at `utc`.
  std::string abbreviation_at(Seconds utc) const;
  // The first instant after `utc` at which the zone's offset may change; nullopt when it never
  // changes again.
  std::optional<Seconds> next_transition(Seconds utc) const;
  // The wall-clock seconds (civil.hpp) of `utc` in this zone.
  Seconds wall_of(Seconds utc) const { return utc + offset_at(utc); }
  // The instants whose wall-clock time here is `wall`.
  WallInstants instants_of(Seconds wall) const;

private:
  struct Type {
    Seconds offset = 0;
    bool dst = false;
    std::string abbrev;
  };
  // The type in effect at `utc` from the table (before the rule takes over).
  const Type& table_type_at(Seconds utc) const;
  bool uses_rule(Seconds utc) const;

  std::string m_name;
  std::vector<Seconds> m_transitions;   // ascending UTC instants
  std::vector<unsigned char> m_indices; // the type after each transition
  std::vector<Type> m_types;            // at least one; m_types[0] before the first transition
  std::optional<PosixTz> m_rule;        // after the last transition
};

// Whether `name` is shaped like a zone name: letters, digits, '_', '-', '+', '.' in components
// separated by '/', none of them "." or "..", not starting with '/'.
bool is_zone_name(std::string_view name);

} // namespace mailroom::schedule
