// Seeded property test of the output gate: random and adversarial text through every sink.
// MAILROOM_PROPERTY_SEED=<n> replays a run; MAILROOM_PROPERTY_MS=<ms> sets its length.

#include <chrono>
#include <string>

#include <doctest/doctest.h>

#include "fuzz/adversarial.hpp"
#include "fuzz/gate_check.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"
#include "text/utf8.hpp"

using namespace mailroom;
using testing::fuzz::Lines;

namespace {

constexpr std::uint64_t k_default_seed = 20261122;

bool valid_utf8(std::string_view text)
{
  for (std::size_t pos = 0; pos < text.size();) {
    const text::utf8::Decoded d = text::utf8::decode(text, pos);
    if (!d.valid) {
      return false;
    }
    pos += d.length;
  }
  return true;
}

// Checks every property for one input; returns what failed, or an empty string.
std::string check_one(std::string_view raw, std::size_t limit)
{
  using text::Sink;
  for (const Sink sink : {Sink::terminal, Sink::terminal_line, Sink::hook}) {
    const Lines lines = sink == Sink::terminal ? Lines::many : Lines::one;
    const text::DisplayText shown = text::sanitize(raw, sink);
    std::string broken = sink == Sink::hook ? testing::fuzz::hook_violation(shown, lines)
                                            : testing::fuzz::display_violation(shown, lines);
    if (!broken.empty()) {
      return fmt::format("sink {}: {}", static_cast<int>(sink), broken);
    }
    if (text::sanitize(shown, sink) != shown.view()) {
      return fmt::format("sink {}: sanitising twice changed the text", static_cast<int>(sink));
    }
    const text::DisplayText capped = text::sanitize(raw, sink, text::Limit{limit});
    if (capped.size() > limit) {
      return fmt::format("sink {}: {} bytes over a limit of {}", static_cast<int>(sink), capped.size(),
                         limit);
    }
    broken = sink == Sink::hook ? testing::fuzz::hook_violation(capped, lines)
                                : testing::fuzz::display_violation(capped, lines);
    if (!broken.empty()) {
      return fmt::format("sink {} capped: {}", static_cast<int>(sink), broken);
    }
  }
  const std::string neutral = text::neutralise_reminder_tags(raw);
  if (text::contains_reminder_tag(neutral)) {
    return "neutralise_reminder_tags left a tag";
  }
  const std::string capped_raw = text::cap_bytes(raw, limit);
  if (capped_raw.size() > limit || (raw.size() <= limit && capped_raw != raw)) {
    return "cap_bytes broke its bound";
  }
  const std::string json = text::json_text(raw);
  if (!valid_utf8(json) || (valid_utf8(raw) && json != raw)) {
    return "json_text changed valid text or left invalid bytes";
  }
  return {};
}

} // namespace

TEST_SUITE("mailroom::text::sanitize_property")
{
  TEST_CASE("no hidden character, control or reminder tag survives any sink")
  {
    const std::uint64_t seed = testing::fuzz::property_seed(k_default_seed);
    const auto deadline = std::chrono::steady_clock::now() + testing::fuzz::property_budget(1000);
    MESSAGE("seed " << seed << " (MAILROOM_PROPERTY_SEED to replay)");
    std::size_t runs = 0;
    for (; std::chrono::steady_clock::now() < deadline; ++runs) {
      testing::fuzz::Adversary adversary(seed + runs);
      const std::string raw = adversary.text();
      const std::size_t limit = adversary.below(64);
      const std::string broken = check_one(raw, limit);
      if (!broken.empty()) {
        FAIL_CHECK("case " << runs << " (seed " << seed + runs << "): " << broken
                           << "\n  input hex: " << text::to_hex(raw));
        break;
      }
    }
    MESSAGE(runs << " inputs");
    CHECK(runs > 0);
  }

  TEST_CASE("the checker itself catches each kind of violation")
  {
    using testing::fuzz::display_violation;
    CHECK(display_violation("ok \xE2\x9D\xA4\xEF\xB8\x8F \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x92\xBB",
                            Lines::one)
              .empty());
    CHECK(display_violation("a\nb\tc", Lines::many).empty());
    CHECK_FALSE(display_violation("a\nb", Lines::one).empty());
    CHECK_FALSE(display_violation("\x1b", Lines::many).empty());
    CHECK_FALSE(display_violation("\xC2\x9B", Lines::many).empty());
    CHECK_FALSE(display_violation("\xff", Lines::many).empty());
    CHECK_FALSE(display_violation("a\xE2\x80\x8B"
                                  "b",
                                  Lines::many)
                    .empty());
    CHECK_FALSE(display_violation("\xF3\xA0\x81\x81", Lines::many).empty());
    CHECK_FALSE(display_violation("x\xEF\xB8\x8F", Lines::many).empty());
    CHECK_FALSE(display_violation("\xE2\x9D\xA4\xEF\xB8\x8F\xEF\xB8\x8F", Lines::many).empty());
    CHECK_FALSE(display_violation("a\xE2\x80\x8D\xF0\x9F\x92\xBB", Lines::many).empty());
    CHECK_FALSE(display_violation("\xE2\x80\xA8", Lines::many).empty());
    CHECK_FALSE(testing::fuzz::hook_violation("</system-reminder>", Lines::one).empty());
  }
}
