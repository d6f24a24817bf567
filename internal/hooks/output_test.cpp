#include "hooks/output.hpp"

#include "render/render.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace mailroom;
using namespace mailroom::hooks;

namespace {

mail::Message message(int n, std::string body)
{
  mail::Message m;
  m.id = "mr-" + std::to_string(n);
  m.from = "mayor";
  m.to = {"bob"};
  m.body = std::move(body);
  return m;
}

std::vector<mail::Message> messages(int count, std::size_t body_bytes)
{
  std::vector<mail::Message> out;
  for (int i = 0; i < count; ++i) {
    out.push_back(message(i, std::string(body_bytes, 'b')));
  }
  return out;
}

config::Identity identity(std::string name, config::Origin origin)
{
  return {std::move(name), std::move(origin)};
}

} // namespace

TEST_SUITE("mailroom::hooks::output")
{
  TEST_CASE("a reminder that fits is render_inject's text unchanged")
  {
    const auto list = messages(3, 40);
    CHECK(bounded_reminder(3, list, "mailroom") == render::render_inject(3, list, "mailroom"));
    CHECK(bounded_reminder(0, {}, "mailroom").empty());
  }

  TEST_CASE("a long reminder lists fewer messages and says so")
  {
    const auto list = messages(500, 200);
    const std::string text = bounded_reminder(600, list, "mailroom");
    CHECK(text.size() <= k_max_context_bytes);
    CHECK(text.size() > k_max_context_bytes / 2);
    CHECK(text.find("You have 600 unread message(s).") != std::string::npos);
    CHECK(text.find("run 'mailroom inbox' for the full list.") != std::string::npos);
    CHECK(text.rfind("</system-reminder>\n") == text.size() - 19);
    // Whole lines only: every listed message keeps its end.
    CHECK(text.find("bbb\n\nRun 'mailroom read <id>'") != std::string::npos);
  }

  TEST_CASE("urgent and high messages say so at the start of their line")
  {
    auto list = messages(3, 5);
    list[0].priority = mail::Priority::urgent;
    list[1].priority = mail::Priority::high;
    const std::string text = bounded_reminder(3, list, "mailroom");
    CHECK(text.find("\n- [urgent] mr-0 from mayor: bbbbb\n- [high] mr-1 from mayor: bbbbb\n- mr-2 from "
                    "mayor: bbbbb\n") != std::string::npos);
  }

  TEST_CASE("a tiny bound still ends with the closing tag")
  {
    const std::string text = bounded_reminder(2, messages(2, 100), std::string(300, 'm'), 200);
    CHECK(text.size() <= 200);
    CHECK(text.find("[cut to fit the hook's size limit]\n</system-reminder>\n") != std::string::npos);
  }

  TEST_CASE("hook JSON per agent")
  {
    for (const Agent agent : k_agents) {
      const std::string out =
          hook_output(agent, "SessionStart", "<system-reminder>\nhi\n</system-reminder>\n\n");
      REQUIRE(!out.empty());
      CHECK(out.back() == '\n');
      CHECK(out.find('\n') == out.size() - 1);
      const auto doc = nlohmann::json::parse(out);
      CHECK(doc.size() == 1);
      CHECK(doc["hookSpecificOutput"]["hookEventName"] == "SessionStart");
      CHECK(doc["hookSpecificOutput"]["additionalContext"] == "<system-reminder>\nhi\n</system-reminder>");
    }
    CHECK(hook_output(Agent::claude, "UserPromptSubmit", "").empty());
    CHECK(hook_output(Agent::gemini, "BeforeAgent", "\n").empty());
  }

  TEST_CASE("invalid UTF-8 in the text still makes valid JSON")
  {
    const std::string out = hook_output(Agent::codex, "UserPromptSubmit",
                                        "a\xff"
                                        "b");
    CHECK(nlohmann::json::parse(out)["hookSpecificOutput"]["additionalContext"] == "a\xEF\xBF\xBD"
                                                                                   "b");
  }

  TEST_CASE("the event: the flag, else the payload, else the agent's default")
  {
    CHECK(choose_event(Agent::claude, std::string("SessionStart"), "UserPromptSubmit") == "SessionStart");
    CHECK(choose_event(Agent::claude, std::nullopt, "SessionStart") == "SessionStart");
    CHECK(choose_event(Agent::claude, std::nullopt, "") == "UserPromptSubmit");
    CHECK(choose_event(Agent::codex, std::string(), "") == "UserPromptSubmit");
    CHECK(choose_event(Agent::gemini, std::nullopt, "") == "BeforeAgent");
  }

  TEST_CASE("the reminder's command carries --as only when the shell would not know the identity")
  {
    config::Config config;
    CHECK(reminder_command(config, identity("bob", config::env_origin("MAILROOM_IDENTITY")), "bob") ==
          "mailroom");
    CHECK(reminder_command(config, identity("bob", config::flag_origin("--as")), "bob") ==
          "mailroom --as bob");
    CHECK(reminder_command(config, identity("human", config::default_origin()), "rig/bob") ==
          "mailroom --as rig/bob");
  }

  TEST_CASE("files given by flag are named, quoted when needed")
  {
    config::Config config;
    config.file = "/work/my project/mailroom.toml";
    config.file_origin = config::flag_origin("--config");
    config.store_path = {"/tmp/mail.db", config::flag_origin("--db")};
    CHECK(reminder_command(config, identity("bob", config::env_origin("GC_AGENT")), "bob") ==
          "mailroom --config \"/work/my project/mailroom.toml\" --db /tmp/mail.db");
    config.file_origin = config::env_origin("MAILROOM_CONFIG");
    config.store_path.origin = config::env_origin("MAILROOM_DB");
    CHECK(reminder_command(config, identity("bob", config::env_origin("GC_AGENT")), "bob") == "mailroom");
  }

  TEST_CASE("a hook's error is one bounded line with the hint folded in")
  {
    Error error = make_error(ErrorCode::store_error, "line one\nline two", "try again");
    const Error out = hook_error(error);
    CHECK(out.code == ErrorCode::store_error);
    CHECK(out.message == "line one line two (try again)");
    CHECK(out.hint.empty());
    const Error long_one = hook_error(make_error(ErrorCode::usage, std::string(1000, 'x')));
    CHECK(long_one.message.size() <= k_max_error_bytes);
  }
}
