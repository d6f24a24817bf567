// The TZif reader against transitions the tz database lists (as Python's zoneinfo reads the same
// files): Berlin and New York inside the file's table and past it (the POSIX rule), Sydney's
// daylight across new year, and the instants of a wall-clock time in a gap and a fold.

#include <doctest/doctest.h>

#include "schedule/posix_tz.hpp"
#include "schedule/zone.hpp"

namespace {

using mailroom::schedule::parse_posix_tz;
using mailroom::schedule::Seconds;
using mailroom::schedule::Zone;

Zone load(const char* name)
{
  auto zone = Zone::load(name);
  REQUIRE_MESSAGE(zone.ok(), (zone.ok() ? "" : zone.error().message));
  return std::move(zone).value();
}

// The offset just before and at `at`, and that `at` is the next transition after a day before.
void check_transition(const Zone& zone, Seconds at, Seconds before, Seconds after)
{
  CAPTURE(at);
  CHECK(zone.offset_at(at - 1) == before);
  CHECK(zone.offset_at(at) == after);
  CHECK(zone.next_transition(at - 86400) == at);
}

} // namespace

TEST_SUITE("mailroom::schedule::Zone")
{
  TEST_CASE("Europe/Berlin changes at the listed instants, in the table and by its rule")
  {
    const Zone berlin = load("Europe/Berlin");
    check_transition(berlin, 828234000, 3600, 7200);  // 1996-03-31T01:00:00Z
    check_transition(berlin, 846378000, 7200, 3600);  // 1996-10-27T01:00:00Z
    check_transition(berlin, 1774746000, 3600, 7200); // 2026-03-29T01:00:00Z
    check_transition(berlin, 1792890000, 7200, 3600); // 2026-10-25T01:00:00Z
    check_transition(berlin, 2216250000, 3600, 7200); // 2040-03-25T01:00:00Z (the rule)
    check_transition(berlin, 2234998800, 7200, 3600); // 2040-10-28T01:00:00Z
    check_transition(berlin, 4109878800, 3600, 7200); // 2100-03-28T01:00:00Z
    check_transition(berlin, 4128627600, 7200, 3600); // 2100-10-31T01:00:00Z
    CHECK(berlin.abbreviation_at(1774746000) == "CEST");
    CHECK(berlin.abbreviation_at(1774746000 - 1) == "CET");
    CHECK(berlin.abbreviation_at(4128627600) == "CET");
  }

  TEST_CASE("America/New_York changes at the listed instants, before and after 2007's rule")
  {
    const Zone ny = load("America/New_York");
    check_transition(ny, 1143961200, -5 * 3600, -4 * 3600); // 2006-04-02T07:00:00Z
    check_transition(ny, 1162101600, -4 * 3600, -5 * 3600); // 2006-10-29T06:00:00Z
    check_transition(ny, 1772953200, -5 * 3600, -4 * 3600); // 2026-03-08T07:00:00Z
    check_transition(ny, 1793512800, -4 * 3600, -5 * 3600); // 2026-11-01T06:00:00Z
    check_transition(ny, 2530767600, -5 * 3600, -4 * 3600); // 2050-03-13T07:00:00Z
    check_transition(ny, 2551327200, -4 * 3600, -5 * 3600); // 2050-11-06T06:00:00Z
  }

  TEST_CASE("Australia/Sydney's daylight time spans the new year")
  {
    const Zone sydney = load("Australia/Sydney");
    check_transition(sydney, 2374675200, 11 * 3600, 10 * 3600); // 2045-04-01T16:00:00Z
    check_transition(sydney, 2390400000, 10 * 3600, 11 * 3600); // 2045-09-30T16:00:00Z
    CHECK(sydney.offset_at(2366841600) == 11 * 3600);           // 2045-01-01T00:00:00Z
  }

  TEST_CASE("a wall-clock time in a gap has no instant; one in a fold has two")
  {
    const Zone berlin = load("Europe/Berlin");
    constexpr Seconds k_day_2026_03_29 = 20541 * 86400; // wall-clock midnight of that date
    const auto gap = berlin.instants_of(k_day_2026_03_29 + 2 * 3600 + 30 * 60);
    CHECK(gap.count == 0);
    CHECK(gap.gap_end == 1774746000);
    const auto before = berlin.instants_of(k_day_2026_03_29 + 1 * 3600 + 59 * 60);
    CHECK(before.count == 1);
    CHECK(before.first == 1774746000 - 60);
    const auto after = berlin.instants_of(k_day_2026_03_29 + 3 * 3600);
    CHECK(after.count == 1);
    CHECK(after.first == 1774746000);

    constexpr Seconds k_day_2026_10_25 = 20751 * 86400;
    const auto fold = berlin.instants_of(k_day_2026_10_25 + 2 * 3600 + 30 * 60);
    CHECK(fold.count == 2);
    CHECK(fold.first == 1792890000 - 30 * 60);  // 00:30Z, CEST
    CHECK(fold.second == 1792890000 + 30 * 60); // 01:30Z, CET

    const Zone ny = load("America/New_York");
    constexpr Seconds k_day_2026_11_01 = 20758 * 86400;
    const auto ny_fold = ny.instants_of(k_day_2026_11_01 + 1 * 3600 + 15 * 60);
    CHECK(ny_fold.count == 2);
    CHECK(ny_fold.first == 1793512800 - 45 * 60);
    CHECK(ny_fold.second == 1793512800 + 15 * 60);
  }

  TEST_CASE("UTC and bad names")
  {
    const Zone utc = Zone::utc();
    CHECK(utc.offset_at(0) == 0);
    CHECK_FALSE(utc.next_transition(0).has_value());
    CHECK(load("Etc/UTC").offset_at(1774746000) == 0);
    for (const char* bad : {"Mars/Olympus", "../etc/passwd", "/etc/passwd", "Europe/../Berlin", "",
                            "zone.tab", "right/Europe/Berlin"}) {
      CAPTURE(bad);
      auto zone = Zone::load(bad);
      REQUIRE_FALSE(zone.ok());
      CHECK(zone.error().code == mailroom::ErrorCode::usage);
    }
    CHECK_FALSE(Zone::parse("x", "TZif2").ok());
    CHECK_FALSE(Zone::parse("x", std::string(60, 'x')).ok());
  }

  TEST_CASE("POSIX TZ rules")
  {
    const auto berlin = parse_posix_tz("CET-1CEST,M3.5.0,M10.5.0/3");
    REQUIRE(berlin.has_value());
    CHECK(berlin->offset_at(1774746000 - 1) == 3600);
    CHECK(berlin->offset_at(1774746000) == 7200);
    CHECK(berlin->next_transition(1774746000) == 1792890000);
    const auto fixed = parse_posix_tz("<+0330>-3:30");
    REQUIRE(fixed.has_value());
    CHECK(fixed->offset_at(0) == 3 * 3600 + 30 * 60);
    CHECK_FALSE(fixed->next_transition(0).has_value());
    for (const char* bad :
         {"", "CE-1", "CET", "CET-1CEST", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.5.0"}) {
      CAPTURE(bad);
      CHECK_FALSE(parse_posix_tz(bad).has_value());
    }
  }
}
