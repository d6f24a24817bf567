// Seeded property test of every render path behind the output gate: message views, tables, the
// check --inject block and its hook JSON, and the JSON documents.
// MAILROOM_PROPERTY_SEED=<n> replays a run; MAILROOM_PROPERTY_MS=<ms> sets its length.

#include <chrono>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "fuzz/adversarial.hpp"
#include "fuzz/gate_check.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

using namespace mailroom;
using testing::fuzz::Lines;

namespace {

constexpr std::uint64_t k_default_seed = 20261123;
constexpr std::string_view k_open = "<system-reminder>\n";
constexpr std::string_view k_close = "</system-reminder>\n";

mail::Message random_message(testing::fuzz::Adversary& a)
{
  mail::Message m;
  m.id = a.text(8);
  m.from = a.text(6);
  m.to = {a.text(4), a.text(4)};
  if (a.below(2) == 0) {
    m.cc = {a.text(4)};
  }
  m.subject = a.text(16);
  m.body = a.text(64);
  m.type = a.text(3);
  m.thread_id = a.text(4);
  if (a.below(2) == 0) {
    m.reply_to = a.text(4);
  }
  m.created_at = static_cast<mail::UnixMillis>(a.below(4'000'000'000'000));
  if (a.below(2) == 0) {
    m.state = mail::DeliveryState{};
    m.state->read = a.below(2) == 0;
  }
  m.addressed_to = {a.text(5)};
  return m;
}

std::string count_lines_violation(std::string_view text, std::size_t expected)
{
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  return lines == expected ? std::string() : fmt::format("{} lines, expected {}", lines, expected);
}

std::string check_views(const std::vector<mail::Message>& messages)
{
  for (const auto& m : messages) {
    if (auto broken = testing::fuzz::display_violation(render::render_message_view(m), Lines::many);
        !broken.empty()) {
      return "message view: " + broken;
    }
  }
  const std::string inbox = render::render_inbox_table(messages, 0, true);
  if (auto broken = testing::fuzz::display_violation(inbox, Lines::many); !broken.empty()) {
    return "inbox: " + broken;
  }
  if (auto broken = count_lines_violation(inbox, messages.size() + 1); !broken.empty()) {
    return "inbox: " + broken;
  }
  const std::string thread = render::render_thread_table(messages);
  if (auto broken = testing::fuzz::display_violation(thread, Lines::many); !broken.empty()) {
    return "thread: " + broken;
  }
  if (auto broken = count_lines_violation(thread, messages.size() + 1); !broken.empty()) {
    return "thread: " + broken;
  }
  return {};
}

std::string check_inject(const std::vector<mail::Message>& messages, std::int64_t unread,
                         std::string_view program)
{
  const std::string block = render::render_inject(unread, messages, program);
  if (block.size() < k_open.size() + k_close.size() || block.substr(0, k_open.size()) != k_open ||
      block.substr(block.size() - k_close.size()) != k_close) {
    return "inject: the frame is not intact";
  }
  const std::string_view inside(block.data() + k_open.size(), block.size() - k_open.size() - k_close.size());
  if (auto broken = testing::fuzz::frame_violation(inside); !broken.empty()) {
    return "inject: " + broken;
  }
  const std::size_t showing = static_cast<std::size_t>(unread) > messages.size() ? 2 : 0;
  // With messages: the line on reading them and the one naming an id to answer.
  if (auto broken = count_lines_violation(inside, 3 + showing + messages.size() + (messages.empty() ? 0 : 2));
      !broken.empty()) {
    return "inject: " + broken;
  }
  const auto hook = nlohmann::json::parse(render::render_claude_hook(block, "UserPromptSubmit"));
  std::string context = block;
  context.pop_back();
  if (hook["hookSpecificOutput"]["additionalContext"] != context) {
    return "claude hook: the context is not the block";
  }
  return {};
}

std::string check_json(const mail::Message& m)
{
  const std::string out = render::dump_json(render::message_to_json(m));
  if (auto broken = testing::fuzz::display_violation(out, Lines::many); !broken.empty()) {
    return "json output: " + broken; // raw JSON on a terminal is inert too
  }
  const auto back = nlohmann::json::parse(out);
  const auto same = [&](const char* key, const std::string& raw) {
    return back[key] == text::json_text(raw);
  };
  if (!same("id", m.id) || !same("from", m.from) || !same("subject", m.subject) || !same("body", m.body) ||
      !same("type", m.type) || !same("thread_id", m.thread_id) || back["to"][1] != text::json_text(m.to[1])) {
    return "json: a field did not round-trip";
  }
  return {};
}

} // namespace

TEST_SUITE("mailroom::render::render_property")
{
  TEST_CASE("every view is escaped, one line where it should be, tag-free in hooks, exact in JSON")
  {
    const std::uint64_t seed = testing::fuzz::property_seed(k_default_seed);
    const auto deadline = std::chrono::steady_clock::now() + testing::fuzz::property_budget(1000);
    MESSAGE("seed " << seed << " (MAILROOM_PROPERTY_SEED to replay)");
    std::size_t runs = 0;
    for (; std::chrono::steady_clock::now() < deadline; ++runs) {
      testing::fuzz::Adversary a(seed + runs);
      std::vector<mail::Message> messages(a.below(4));
      for (auto& m : messages) {
        m = random_message(a);
      }
      const auto unread = static_cast<std::int64_t>(messages.size() + a.below(3)) + 1;
      std::string broken = check_views(messages);
      if (broken.empty()) {
        broken = check_inject(messages, unread, a.below(4) == 0 ? a.text(4) : std::string("mailroom"));
      }
      for (const auto& m : messages) {
        if (broken.empty()) {
          broken = check_json(m);
        }
      }
      if (!broken.empty()) {
        FAIL_CHECK("case " << runs << " (seed " << seed + runs << "): " << broken);
        break;
      }
    }
    MESSAGE(runs << " cases");
    CHECK(runs > 0);
  }
}
