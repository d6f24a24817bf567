// libFuzzer target: the reminder-tag neutraliser. No tag survives, nothing is added or reordered,
// and a second pass changes nothing.

#include <string>

#include "testing/fuzz/harness.hpp"
#include "text/reminder.hpp"

using namespace mailroom;
using testing::fuzz::require;

namespace {

// True when `part` can be read out of `whole` in order (the neutraliser only removes).
bool is_subsequence(std::string_view part, std::string_view whole)
{
  std::size_t at = 0;
  for (const char c : whole) {
    if (at < part.size() && part[at] == c) {
      ++at;
    }
  }
  return at == part.size();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view raw = testing::fuzz::as_text(data, size);
  const std::string out = text::neutralise_reminder_tags(raw);
  require(!text::contains_reminder_tag(out), "a reminder tag survived");
  require(out.size() <= raw.size() && is_subsequence(out, raw), "the neutraliser added or reordered bytes");
  require(text::neutralise_reminder_tags(out) == out, "a second pass changed the text");
  return 0;
}
