#include "hooks/payload.hpp"

#include "testing/temp_dir.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

using namespace mailroom::hooks;

namespace {

std::string fixture(const std::string& name)
{
  std::ifstream file(std::string(MAILROOM_TESTDATA_DIR) + "/hooks/" + name, std::ios::binary);
  REQUIRE(file.good());
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string event_of(const std::string& name)
{
  const auto payload = parse_payload(fixture(name));
  return payload ? payload->hook_event_name : "<none>";
}

// A pipe whose read end is returned; `text` is written and, with `close_writer`, the write end
// closed. The caller closes what is returned (and the writer, when kept open).
struct Pipe {
  int read_end = -1;
  int write_end = -1;
  explicit Pipe(const std::string& text, bool close_writer = true)
  {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    read_end = fds[0];
    write_end = fds[1];
    REQUIRE(::write(write_end, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    if (close_writer) {
      ::close(write_end);
      write_end = -1;
    }
  }
  ~Pipe()
  {
    ::close(read_end);
    if (write_end >= 0) {
      ::close(write_end);
    }
  }
};

} // namespace

TEST_SUITE("mailroom::hooks::payload")
{
  TEST_CASE("recorded payloads of each agent give their event name")
  {
    CHECK(event_of("claude/user_prompt_submit.json") == "UserPromptSubmit");
    CHECK(event_of("claude/session_start.json") == "SessionStart");
    CHECK(event_of("claude/session_start_compact.json") == "SessionStart");
    CHECK(event_of("claude/prompt_first_pretty.json") == "UserPromptSubmit");
    CHECK(event_of("codex/user_prompt_submit.json") == "UserPromptSubmit");
    CHECK(event_of("codex/session_start.json") == "SessionStart");
    CHECK(event_of("gemini/before_agent.json") == "BeforeAgent");
    CHECK(event_of("gemini/session_start.json") == "SessionStart");
  }

  TEST_CASE("session id and cwd are kept")
  {
    const auto payload = parse_payload(fixture("codex/user_prompt_submit.json"));
    REQUIRE(payload);
    CHECK(payload->session_id == "019a3c5e-8d21-7f40-b6e2-5a9c1d3e7f80");
    CHECK(payload->cwd == "/home/dev/app");
  }

  TEST_CASE("empty, blank, garbage, truncated and non-object payloads are no payload")
  {
    for (const char* name : {"bad/empty.json", "bad/blank.json", "bad/garbage.txt", "bad/truncated.json",
                             "bad/array.json", "bad/string.json", "bad/trailing_garbage.json"}) {
      CAPTURE(name);
      CHECK(!parse_payload(fixture(name)));
    }
  }

  TEST_CASE("an event name that is not a plain name is dropped, the rest kept")
  {
    CHECK(event_of("bad/event_not_string.json").empty());
    CHECK(event_of("bad/event_not_a_name.json").empty());
    CHECK(parse_payload(fixture("bad/event_not_a_name.json"))->session_id == "x");
    CHECK(event_of("claude/user_prompt_submit.json") == "UserPromptSubmit");
    CHECK(parse_payload(R"({"hook_event_name":")" + std::string(65, 'A') + R"("})")->hook_event_name.empty());
  }

  TEST_CASE("nested members of the same name do not count")
  {
    const auto payload = parse_payload(R"({"tool_input":{"hook_event_name":"Stop","cwd":"/x"},"cwd":"/y"})");
    REQUIRE(payload);
    CHECK(payload->hook_event_name.empty());
    CHECK(payload->cwd == "/y");
  }

  TEST_CASE("parsing stops once the three fields are known")
  {
    // The garbage after them is never reached, so the payload still counts.
    const auto payload = parse_payload(R"({"session_id":"s","cwd":"/c","hook_event_name":"SessionStart",)"
                                       R"("prompt": oops not json)");
    REQUIRE(payload);
    CHECK(payload->hook_event_name == "SessionStart");
  }

  TEST_CASE("reading a pipe to EOF")
  {
    const std::string text = fixture("gemini/before_agent.json");
    Pipe pipe(text);
    CHECK(read_payload_text(pipe.read_end) == text);
    Pipe again(text);
    CHECK(read_payload(again.read_end)->hook_event_name == "BeforeAgent");
    Pipe empty("");
    CHECK(read_payload_text(empty.read_end) == std::string());
    Pipe none("");
    CHECK(!read_payload(none.read_end));
  }

  TEST_CASE("more than the size cap is no payload")
  {
    PayloadLimits limits;
    limits.max_bytes = 1000;
    const std::string big =
        R"({"hook_event_name":"UserPromptSubmit","prompt":")" + std::string(2000, 'x') + "\"}";
    Pipe pipe(big);
    CHECK(!read_payload(pipe.read_end, limits));
    Pipe exact(std::string(1000, ' '));
    CHECK(read_payload_text(exact.read_end, limits)->size() == 1000);
  }

  TEST_CASE("a 1 MiB prompt is over the default cap")
  {
    const std::string huge =
        R"({"hook_event_name":"UserPromptSubmit","prompt":")" + std::string(1 << 20, 'x') + "\"}";
    // Bigger than a pipe buffer, so write it from a file instead.
    const std::string path = (mailroom::testing::make_temp_dir("payload") / "huge.json").string();
    {
      std::ofstream file(path, std::ios::binary);
      file << huge;
    }
    const int fd = ::open(path.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    CHECK(!read_payload(fd));
    ::close(fd);
  }

  TEST_CASE("a writer that never closes costs at most the timeout")
  {
    PayloadLimits limits;
    limits.timeout = std::chrono::milliseconds(30);
    Pipe pipe(R"({"hook_event_name":"SessionStart"})", false);
    const auto start = std::chrono::steady_clock::now();
    CHECK(!read_payload(pipe.read_end, limits));
    const auto spent = std::chrono::steady_clock::now() - start;
    CHECK(spent >= std::chrono::milliseconds(25));
    CHECK(spent < std::chrono::milliseconds(500));
  }

  TEST_CASE("a bad descriptor is no payload")
  {
    CHECK(!read_payload_text(-1));
  }
}
