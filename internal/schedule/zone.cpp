#include "schedule/zone.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "util/file_read.hpp"

namespace mailroom::schedule {

namespace {

constexpr std::size_t k_header_bytes = 44;
constexpr std::size_t k_max_zone_file_bytes = 1U << 20;
constexpr Seconds k_max_offset = 26 * k_hour_s; // RFC 8536: offsets stay within ±25:59:59

struct Header {
  char version = 0;
  std::uint32_t isut = 0;
  std::uint32_t isstd = 0;
  std::uint32_t leap = 0;
  std::uint32_t time = 0;
  std::uint32_t type = 0;
  std::uint32_t chars = 0;
};

std::uint64_t big_endian(std::string_view bytes, std::size_t at, std::size_t width)
{
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  }
  return value;
}

std::int64_t signed_big_endian(std::string_view bytes, std::size_t at, std::size_t width)
{
  const std::uint64_t raw = big_endian(bytes, at, width);
  if (width == 4) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(raw));
  }
  return static_cast<std::int64_t>(raw);
}

std::optional<Header> read_header(std::string_view bytes, std::size_t at)
{
  if (bytes.size() < at + k_header_bytes || bytes.substr(at, 4) != "TZif") {
    return std::nullopt;
  }
  Header h;
  h.version = bytes[at + 4];
  const std::size_t counts = at + 20;
  h.isut = static_cast<std::uint32_t>(big_endian(bytes, counts, 4));
  h.isstd = static_cast<std::uint32_t>(big_endian(bytes, counts + 4, 4));
  h.leap = static_cast<std::uint32_t>(big_endian(bytes, counts + 8, 4));
  h.time = static_cast<std::uint32_t>(big_endian(bytes, counts + 12, 4));
  h.type = static_cast<std::uint32_t>(big_endian(bytes, counts + 16, 4));
  h.chars = static_cast<std::uint32_t>(big_endian(bytes, counts + 20, 4));
  return h;
}

// The bytes of a data block after its header.
std::uint64_t data_bytes(const Header& h, std::size_t time_width)
{
  return std::uint64_t{h.time} * time_width + h.time + std::uint64_t{h.type} * 6 + h.chars +
         std::uint64_t{h.leap} * (time_width + 4) + h.isstd + h.isut;
}

Error bad_zone(std::string_view name, std::string_view why)
{
  return make_error(ErrorCode::usage, fmt::format("unknown time zone \"{}\" ({})", name, why),
                    "give an IANA zone name such as Europe/Berlin or America/New_York (see "
                    "/usr/share/zoneinfo)");
}

} // namespace

bool is_zone_name(std::string_view name)
{
  if (name.empty() || name.size() > 255 || name.front() == '/') {
    return false;
  }
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t slash = std::min(name.find('/', start), name.size());
    const std::string_view part = name.substr(start, slash - start);
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
    for (const char c : part) {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '+' || c == '.';
      if (!ok) {
        return false;
      }
    }
    start = slash + 1;
  }
  return true;
}

Zone Zone::utc()
{
  Zone zone;
  zone.m_name = "UTC";
  zone.m_types.push_back(Type{0, false, "UTC"});
  return zone;
}

Result<Zone> Zone::load(std::string_view name, std::string_view directory)
{
  if (name == "UTC") {
    return utc();
  }
  if (!is_zone_name(name)) {
    return bad_zone(name, "not a zone name");
  }
  const auto bytes = util::read_file(fmt::format("{}/{}", directory, name), k_max_zone_file_bytes);
  if (!bytes) {
    return bad_zone(name, "no such zone");
  }
  return parse(name, *bytes);
}

Result<Zone> Zone::parse(std::string_view name, std::string_view bytes)
{
  const auto first = read_header(bytes, 0);
  if (!first) {
    return bad_zone(name, "not a TZif file");
  }
  Header h = *first;
  std::size_t at = k_header_bytes;
  std::size_t width = 4;
  if (h.version >= '2') {
    const std::uint64_t skip = data_bytes(h, 4);
    if (skip > bytes.size() - at) {
      return bad_zone(name, "a truncated TZif file");
    }
    const auto second = read_header(bytes, at + skip);
    if (!second) {
      return bad_zone(name, "a damaged TZif file");
    }
    h = *second;
    at += skip + k_header_bytes;
    width = 8;
  }
  if (data_bytes(h, width) > bytes.size() - at) {
    return bad_zone(name, "a truncated TZif file");
  }
  if (h.type == 0 || h.type > 256 || h.chars == 0) {
    return bad_zone(name, "a damaged TZif file");
  }
  if (h.leap != 0) {
    return bad_zone(name, "it counts leap seconds; use the zone of the same name without right/");
  }
  Zone zone;
  zone.m_name = std::string(name);
  for (std::uint32_t i = 0; i < h.time; ++i) {
    zone.m_transitions.push_back(signed_big_endian(bytes, at + i * width, width));
  }
  at += std::size_t{h.time} * width;
  for (std::uint32_t i = 0; i < h.time; ++i) {
    const auto index = static_cast<unsigned char>(bytes[at + i]);
    if (index >= h.type) {
      return bad_zone(name, "a damaged TZif file");
    }
    zone.m_indices.push_back(index);
  }
  at += h.time;
  const std::string_view chars = bytes.substr(at + std::size_t{h.type} * 6, h.chars);
  for (std::uint32_t i = 0; i < h.type; ++i) {
    const std::size_t entry = at + std::size_t{i} * 6;
    Type type;
    type.offset = signed_big_endian(bytes, entry, 4);
    type.dst = bytes[entry + 4] != 0;
    const auto abbrev_at = static_cast<unsigned char>(bytes[entry + 5]);
    if (abbrev_at >= chars.size() || type.offset <= -k_max_offset || type.offset >= k_max_offset) {
      return bad_zone(name, "a damaged TZif file");
    }
    const std::string_view rest = chars.substr(abbrev_at);
    type.abbrev = std::string(rest.substr(0, rest.find('\0')));
    zone.m_types.push_back(std::move(type));
  }
  if (!std::is_sorted(zone.m_transitions.begin(), zone.m_transitions.end())) {
    return bad_zone(name, "a damaged TZif file");
  }
  at += data_bytes(h, width) - std::size_t{h.time} * (width + 1);
  if (width == 8 && at < bytes.size() && bytes[at] == '\n') {
    const std::size_t end = bytes.find('\n', at + 1);
    if (end == std::string_view::npos) {
      return bad_zone(name, "a damaged TZif footer");
    }
    const std::string_view footer = bytes.substr(at + 1, end - at - 1);
    if (!footer.empty()) {
      zone.m_rule = parse_posix_tz(footer);
      if (!zone.m_rule) {
        return bad_zone(name, "a TZif footer that is not a POSIX TZ rule");
      }
    }
  }
  return zone;
}

bool Zone::uses_rule(Seconds utc) const
{
  return m_rule && (m_transitions.empty() || utc >= m_transitions.back());
}

const Zone::Type& Zone::table_type_at(Seconds utc) const
{
  const auto after = std::upper_bound(m_transitions.begin(), m_transitions.end(), utc);
  if (after == m_transitions.begin()) {
    return m_types.front(); // RFC 8536: before the first transition, time type 0
  }
  return m_types[m_indices[static_cast<std::size_t>(after - m_transitions.begin() - 1)]];
}

Seconds Zone::offset_at(Seconds utc) const
{
  if (uses_rule(utc)) {
    return m_rule->offset_at(utc);
  }
  return table_type_at(utc).offset;
}

std::string Zone::abbreviation_at(Seconds utc) const
{
  if (uses_rule(utc)) {
    bool dst = false;
    m_rule->offset_at(utc, &dst);
    return dst ? m_rule->daylight->abbrev : m_rule->std_abbrev;
  }
  return table_type_at(utc).abbrev;
}

std::optional<Seconds> Zone::next_transition(Seconds utc) const
{
  const auto after = std::upper_bound(m_transitions.begin(), m_transitions.end(), utc);
  if (after != m_transitions.end()) {
    return *after;
  }
  if (m_rule) {
    return m_rule->next_transition(utc);
  }
  return std::nullopt;
}

WallInstants Zone::instants_of(Seconds wall) const
{
  // Every instant that reads `wall` lies within a day and two hours of it. Walk the stretches of
  // constant offset in that window; in each, `wall - offset` is the one candidate.
  WallInstants found;
  std::optional<Seconds> jump;
  Seconds from = wall - k_max_offset;
  const Seconds to = wall + k_max_offset;
  Seconds previous_offset = offset_at(from - 1);
  while (from < to) {
    const Seconds offset = offset_at(from);
    const std::optional<Seconds> next = next_transition(from);
    const Seconds until = next && *next < to ? *next : to;
    const Seconds candidate = wall - offset;
    if (candidate >= from && candidate < until) {
      if (found.count == 0) {
        found.first = candidate;
      } else {
        found.second = candidate;
      }
      found.count = std::min(found.count + 1, 2);
    } else if (!jump && offset > previous_offset && from - 1 + previous_offset < wall &&
               from + offset > wall) {
      jump = from; // the clocks jumped from before `wall` to after it here
    }
    previous_offset = offset;
    from = until;
  }
  if (found.count == 0 && jump) {
    found.gap_end = *jump;
  }
  return found;
}

} // namespace mailroom::schedule
