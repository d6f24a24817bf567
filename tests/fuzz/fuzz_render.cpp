// libFuzzer target: a message built from the input through every render path: the read view,
// the inbox and thread tables, the check --inject block and its hook JSON, and the JSON document.

#include <algorithm>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include "fuzz/gate_check.hpp"
#include "fuzz/harness.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"

using namespace mailroom;
using testing::fuzz::Lines;
using testing::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  FuzzedDataProvider input(data, size);
  mail::Message m;
  m.id = input.ConsumeRandomLengthString(64);
  m.from = input.ConsumeRandomLengthString(64);
  m.to = {input.ConsumeRandomLengthString(32), input.ConsumeRandomLengthString(32)};
  m.subject = input.ConsumeRandomLengthString(256);
  m.type = input.ConsumeRandomLengthString(16);
  m.thread_id = input.ConsumeRandomLengthString(16);
  m.created_at = input.ConsumeIntegral<std::int32_t>();
  m.body = input.ConsumeRemainingBytesAsString();

  const std::string view = render::render_message_view(m);
  require(testing::fuzz::display_violation(view, Lines::many).empty(),
          "message view:", testing::fuzz::display_violation(view, Lines::many));
  const std::string inbox = render::render_inbox_table({m}, 0, true);
  require(testing::fuzz::display_violation(inbox, Lines::many).empty(), "inbox table");
  require(std::count(inbox.begin(), inbox.end(), '\n') == 2, "an inbox row took more than one line");
  const std::string thread = render::render_thread_table({m});
  require(std::count(thread.begin(), thread.end(), '\n') == 2, "a thread row took more than one line");

  const std::string block = render::render_inject(1, {m});
  const std::string_view open = "<system-reminder>\n";
  const std::string_view close = "</system-reminder>\n";
  require(block.rfind(open, 0) == 0 && block.size() > open.size() + close.size() &&
              block.substr(block.size() - close.size()) == close,
          "the reminder frame is not intact");
  const std::string_view inside =
      std::string_view(block).substr(open.size(), block.size() - open.size() - close.size());
  require(testing::fuzz::frame_violation(inside).empty(), "inject:", testing::fuzz::frame_violation(inside));
  const auto hook = nlohmann::json::parse(render::render_claude_hook(block, "UserPromptSubmit"));
  require(hook["hookSpecificOutput"]["additionalContext"] == block.substr(0, block.size() - 1), "hook JSON");

  const auto back = nlohmann::json::parse(render::dump_json(render::message_to_json(m)));
  require(back["body"] == text::json_text(m.body) && back["subject"] == text::json_text(m.subject),
          "JSON did not round-trip");
  return 0;
}
