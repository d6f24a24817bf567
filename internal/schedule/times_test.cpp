// What a TIME means in a zone (decisions "Zones and times"), and which zone a schedule takes.

#include <doctest/doctest.h>

#include "mail/duration.hpp"
#include "schedule/times.hpp"

namespace {

using mailroom::schedule::Millis;
using mailroom::schedule::parse_time;
using mailroom::schedule::TimeForm;
using mailroom::schedule::Zone;

Millis at(const char* rfc3339)
{
  const auto t = mailroom::mail::parse_rfc3339(rfc3339);
  REQUIRE(t.has_value());
  return *t;
}

Zone berlin()
{
  auto zone = Zone::load("Europe/Berlin");
  REQUIRE(zone.ok());
  return std::move(zone).value();
}

std::string error_of(const mailroom::Result<Millis>& result)
{
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().code == mailroom::ErrorCode::usage);
  return result.error().message;
}

} // namespace

TEST_SUITE("mailroom::schedule::times")
{
  TEST_CASE("RFC 3339, a date and time in the zone, a time of day, a duration")
  {
    const Zone zone = berlin();
    const Millis now = at("2026-06-10T12:00:00Z"); // 14:00 in Berlin
    CHECK(*parse_time("2026-12-02T09:00:00+01:00", zone, now, "--at", TimeForm::time_only) ==
          at("2026-12-02T08:00:00Z"));
    CHECK(*parse_time("2026-12-02 09:00", zone, now, "--at", TimeForm::time_only) ==
          at("2026-12-02T08:00:00Z"));
    CHECK(*parse_time("2026-07-02T09:00", zone, now, "--at", TimeForm::time_only) ==
          at("2026-07-02T07:00:00Z"));
    CHECK(*parse_time("15:30", zone, now, "--at", TimeForm::time_only) == at("2026-06-10T13:30:00Z"));
    CHECK(*parse_time("09:00", zone, now, "--at", TimeForm::time_only) == at("2026-06-11T07:00:00Z"));
    CHECK(*parse_time("90m", zone, now, "--start", TimeForm::time_or_delay) == now + 90 * 60 * 1000);
    CHECK(error_of(parse_time("90m", zone, now, "--at", TimeForm::time_only)) ==
          "invalid time \"90m\" for --at");
  }

  TEST_CASE("a past time, a gap and a fold are refused, naming the UTC instants")
  {
    const Zone zone = berlin();
    const Millis now = at("2026-03-01T00:00:00Z");
    CHECK(error_of(parse_time("2026-02-01 09:00", zone, now, "--at", TimeForm::time_only)) ==
          "--at \"2026-02-01 09:00\" (2026-02-01T08:00:00Z) is in the past");
    CHECK(error_of(parse_time("2026-02-01T09:00:00Z", zone, now, "--at", TimeForm::time_only)) ==
          "--at \"2026-02-01T09:00:00Z\" (2026-02-01T09:00:00Z) is in the past");
    CHECK(error_of(parse_time("2026-03-29 02:30", zone, now, "--at", TimeForm::time_only)) ==
          "--at 2026-03-29 02:30 does not exist in Europe/Berlin: the clocks jump from 2026-03-29 02:00 to "
          "2026-03-29 03:00 at 2026-03-29T01:00:00Z");
    CHECK(error_of(parse_time("2026-10-25 02:30", zone, now, "--at", TimeForm::time_only)) ==
          "--at 2026-10-25 02:30 is ambiguous in Europe/Berlin: the clocks pass it twice, at "
          "2026-10-25T00:30:00Z "
          "(CEST) and at 2026-10-25T01:30:00Z (CET)");
    // HH:MM is its next occurrence; the night of the change has none at 02:30.
    CHECK(error_of(parse_time("02:30", zone, at("2026-03-28T12:00:00Z"), "--at", TimeForm::time_only))
              .find("does not exist in Europe/Berlin") != std::string::npos);
    for (const char* bad : {"tomorrow", "25:00", "2026-02-30 09:00", "2026-13-01 09:00", "9:00", "", "0s"}) {
      CAPTURE(bad);
      CHECK_FALSE(parse_time(bad, zone, now, "--start", TimeForm::time_or_delay).ok());
    }
  }

  TEST_CASE("the zone: --tz, then the config, then an IANA $TZ, then the system's, else UTC")
  {
    mailroom::schedule::ZoneSources sources;
    sources.localtime_link = "/nonexistent/localtime";
    sources.timezone_file = "/nonexistent/timezone";
    CHECK(mailroom::schedule::choose_zone(sources)->name() == "UTC");
    sources.env_tz = ":America/New_York";
    CHECK(mailroom::schedule::choose_zone(sources)->name() == "America/New_York");
    sources.config = "Asia/Tokyo";
    CHECK(mailroom::schedule::choose_zone(sources)->name() == "Asia/Tokyo");
    sources.flag = "Europe/Berlin";
    CHECK(mailroom::schedule::choose_zone(sources)->name() == "Europe/Berlin");
    sources.flag = "Europe/Berln";
    auto typo = mailroom::schedule::choose_zone(sources);
    REQUIRE_FALSE(typo.ok());
    CHECK(typo.error().message == "--tz: unknown time zone \"Europe/Berln\" (no such zone)");
    sources.flag.reset();
    sources.config.reset();
    sources.env_tz = "CET-1CEST,M3.5.0,M10.5.0/3";
    auto posix = mailroom::schedule::choose_zone(sources);
    REQUIRE_FALSE(posix.ok());
    CHECK(posix.error().message == "TZ=\"CET-1CEST,M3.5.0,M10.5.0/3\" does not name an IANA time zone");
    CHECK(posix.error().hint.find("--tz") != std::string::npos);
  }
}
