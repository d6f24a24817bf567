// Slots of --every, --at, --start and --until (decisions "--every"), and the default TTL.

#include <doctest/doctest.h>

#include "mail/duration.hpp"
#include "schedule/rule.hpp"

namespace {

using mailroom::schedule::Millis;
using mailroom::schedule::Rule;
using mailroom::schedule::Zone;

Millis at(const char* rfc3339)
{
  const auto t = mailroom::mail::parse_rfc3339(rfc3339);
  REQUIRE(t.has_value());
  return *t;
}

} // namespace

TEST_SUITE("mailroom::schedule::rule")
{
  TEST_CASE("--every counts elapsed time from its anchor, across a daylight-saving change")
  {
    auto zone = Zone::load("Europe/Berlin");
    REQUIRE(zone.ok());
    Rule rule;
    rule.kind = Rule::Kind::every;
    rule.every = 24 * 3600 * 1000LL;
    rule.anchor = at("2026-03-28T08:00:00Z"); // 09:00 CET
    CHECK(next_slot(rule, *zone, at("2026-03-01T00:00:00Z")) == rule.anchor);
    CHECK(next_slot(rule, *zone, rule.anchor) == at("2026-03-29T08:00:00Z")); // 10:00 CEST: not shifted
    CHECK(next_slot(rule, *zone, rule.anchor + 1) == at("2026-03-29T08:00:00Z"));
    CHECK(period_after(rule, *zone, rule.anchor) == rule.every);
    rule.until = at("2026-03-30T08:00:00Z");
    CHECK(next_slot(rule, *zone, at("2026-03-29T08:00:00Z")) ==
          at("2026-03-30T08:00:00Z")); // at until: fires
    CHECK_FALSE(next_slot(rule, *zone, at("2026-03-30T08:00:00Z")).has_value());
  }

  TEST_CASE("a one-shot has one slot and no period")
  {
    Rule rule;
    rule.kind = Rule::Kind::at;
    rule.at = at("2026-12-02T08:00:00Z");
    CHECK(next_slot(rule, Zone::utc(), 0) == rule.at);
    CHECK_FALSE(next_slot(rule, Zone::utc(), rule.at).has_value());
    CHECK_FALSE(period_after(rule, Zone::utc(), rule.at).has_value());
  }

  TEST_CASE("cron with --start and --until, and its per-slot period")
  {
    auto zone = Zone::load("America/New_York");
    REQUIRE(zone.ok());
    auto cron = mailroom::schedule::parse_cron("0 9 * * mon-fri");
    REQUIRE(cron.ok());
    Rule rule;
    rule.kind = Rule::Kind::cron;
    rule.cron = *cron;
    rule.start = at("2026-03-06T14:00:00Z"); // Friday 09:00 EST: the first slot
    CHECK(next_slot(rule, *zone, at("2026-01-01T00:00:00Z")) == at("2026-03-06T14:00:00Z"));
    // Friday to Monday across the change: 09:00 EDT is 13:00Z.
    CHECK(next_slot(rule, *zone, at("2026-03-06T14:00:00Z")) == at("2026-03-09T13:00:00Z"));
    CHECK(period_after(rule, *zone, at("2026-03-06T14:00:00Z")) == 3 * 24 * 3600 * 1000LL - 3600 * 1000LL);
    rule.until = at("2026-03-09T12:59:59Z");
    CHECK_FALSE(next_slot(rule, *zone, at("2026-03-06T14:00:00Z")).has_value());
    CHECK(period_after(rule, *zone, at("2026-03-06T14:00:00Z")).has_value()); // --until ignored
  }
}
