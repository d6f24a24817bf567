// libFuzzer target: any bytes through every sink of the output gate, with and without a limit,
// and through cap_bytes and json_text (docs/output-safety.md).

#include <string>

#include "fuzz/gate_check.hpp"
#include "fuzz/harness.hpp"
#include "text/sanitize.hpp"
#include "text/utf8.hpp"

using namespace mailroom;
using testing::fuzz::Lines;
using testing::fuzz::require;

namespace {

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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view raw = testing::fuzz::as_text(data, size);
  const std::size_t limit = size % 97;
  for (const text::Sink sink : {text::Sink::terminal, text::Sink::terminal_line, text::Sink::hook}) {
    const Lines lines = sink == text::Sink::terminal ? Lines::many : Lines::one;
    const text::DisplayText shown = text::sanitize(raw, sink);
    const std::string broken = sink == text::Sink::hook ? testing::fuzz::hook_violation(shown, lines)
                                                        : testing::fuzz::display_violation(shown, lines);
    require(broken.empty(), "sanitize:", broken);
    require(text::sanitize(shown, sink) == shown.view(), "sanitize is not idempotent");
    const text::DisplayText capped = text::sanitize(raw, sink, text::Limit{limit});
    require(capped.size() <= limit, "a limit was exceeded");
    require(testing::fuzz::display_violation(capped, lines).empty(), "a cut broke the text");
    require(text::display_width(shown) <= shown.size(), "wider than its bytes");
  }
  const std::string capped_raw = text::cap_bytes(raw, limit);
  require(capped_raw.size() <= limit, "cap_bytes exceeded its cap");
  const std::string json = text::json_text(raw);
  require(valid_utf8(json), "json_text left invalid UTF-8");
  require(!valid_utf8(raw) || json == raw, "json_text changed valid text");
  return 0;
}
