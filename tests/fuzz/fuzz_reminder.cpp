// libFuzzer target: the reminder-tag neutraliser. No tag survives, nothing is added or reordered,
// and a second pass changes nothing; with the structural guard, no tag survives, no ASCII bracket
// is left but in the gate's escape form, and a second pass changes nothing.

#include <string>

#include "fuzz/harness.hpp"
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
  const std::string guarded = text::neutralise_reminder_tags(raw, text::Brackets::replace);
  require(!text::contains_reminder_tag(guarded), "a reminder tag survived the guarded pass");
  for (std::size_t pos = guarded.find_first_of("<>"); pos != std::string::npos;
       pos = guarded.find_first_of("<>", pos + 1)) {
    require(guarded[pos] == '<' ? guarded.compare(pos, 3, "<U+") == 0
                                : guarded.rfind("<U+", pos) != std::string::npos,
            "an ASCII bracket survived the guard");
  }
  require(text::neutralise_reminder_tags(guarded, text::Brackets::replace) == guarded,
          "a second guarded pass changed the text");
  return 0;
}
