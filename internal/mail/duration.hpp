#pragma once

// Durations and points in time as users write them (contract "Round 2 additions"): `500ms`,
// `30s`, `10m`, `2h`, `7d`, a bare number of seconds; times as RFC 3339 or a date.

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "mail/message.hpp"

namespace mailroom::mail {

using Millis = std::int64_t;

inline constexpr Millis k_second_ms = 1000;
inline constexpr Millis k_minute_ms = 60 * k_second_ms;
inline constexpr Millis k_hour_ms = 60 * k_minute_ms;
inline constexpr Millis k_day_ms = 24 * k_hour_ms;

// Parses `text` as a duration: digits followed by ms, s, m, h or d, or digits alone (seconds).
// At most 100 years. Errors: usage naming `text` (quoted, capped) and `what` ("--ttl").
Result<Millis> parse_duration(std::string_view text, std::string_view what);

// "500ms", "30s", "10m", "2h", "7d", or a combination such as "1h30m" for display.
std::string format_duration(Millis ms);

// A point in time for --since/--until: a duration means that long before `now`; otherwise an
// RFC 3339 time (`2026-11-23T10:00:00Z`, an offset, optional fraction) or a date (`2026-11-23`,
// midnight UTC). Errors: usage naming `text` and `what`.
Result<UnixMillis> parse_time_or_age(std::string_view text, UnixMillis now, std::string_view what);

// Parses RFC 3339 with a zone (Z or ±hh:mm) and optional fraction. Nullopt when malformed.
std::optional<UnixMillis> parse_rfc3339(std::string_view text);

} // namespace mailroom::mail
