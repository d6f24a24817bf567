#include "exec/exec_provider.hpp"

// How a failing script is reported: every failure is an error naming the script and the
// operation, never an empty or partial answer.

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <unistd.h>

#include <doctest/doctest.h>

#include "exec/exec_test_support.hpp"

namespace mailroom::providers::exec {

namespace {

using testing::inbox;
using testing::open_script;
using testing::StateDir;

// True while `pid` exists and is not a zombie (an orphan zombie may wait for its reaper).
bool process_alive(pid_t pid)
{
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!stat || !std::getline(stat, line)) {
    return false;
  }
  const auto close_paren = line.rfind(')');
  return close_paren != std::string::npos && close_paren + 2 < line.size() && line[close_paren + 2] != 'Z';
}

} // namespace

TEST_SUITE("mailroom::providers::exec::ExecProvider failures")
{
  TEST_CASE("exit 1 carries the script's stderr")
  {
    StateDir state;
    auto provider = open_script("fails_with_stderr.sh");
    auto listed = inbox(*provider, "bob");
    REQUIRE_FALSE(listed.ok());
    CHECK(listed.error().code == ErrorCode::provider_error);
    CHECK(listed.error().message == "exec mail provider " + testing::script_path("fails_with_stderr.sh") +
                                        " inbox bob: something went wrong");
  }

  TEST_CASE("bad JSON is a provider_error naming the script and op")
  {
    StateDir state;
    auto provider = open_script("garbage_output.sh");
    auto listed = inbox(*provider, "bob");
    REQUIRE_FALSE(listed.ok());
    CHECK(listed.error().code == ErrorCode::provider_error);
    CHECK(listed.error().message.rfind("exec mail provider " + testing::script_path("garbage_output.sh") +
                                           " inbox bob: invalid JSON",
                                       0) == 0);
    CHECK(provider->get("bob", "gc-1").error().code == ErrorCode::provider_error);
  }

  TEST_CASE("a hanging script times out and its whole process group dies")
  {
    StateDir state;
    auto provider = open_script("hangs.sh", std::chrono::milliseconds(500));
    auto listed = inbox(*provider, "bob");
    REQUIRE_FALSE(listed.ok());
    CHECK(listed.error().code == ErrorCode::timeout);
    CHECK(listed.error().message ==
          "exec mail provider " + testing::script_path("hangs.sh") + " inbox bob: timed out after 500ms");
    const std::string pid_text = state.read("grandchild.pid");
    REQUIRE_FALSE(pid_text.empty());
    const pid_t grandchild = std::stoi(pid_text);
    for (int i = 0; i < 200 && process_alive(grandchild); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK_FALSE(process_alive(grandchild));
  }

  TEST_CASE("output past the cap is an error, not a truncated answer")
  {
    StateDir state;
    auto provider = open_script("huge_output.sh", std::chrono::seconds(20), 1U << 20U);
    auto listed = inbox(*provider, "bob");
    REQUIRE_FALSE(listed.ok());
    CHECK(listed.error().code == ErrorCode::provider_error);
    CHECK(listed.error().message == "exec mail provider " + testing::script_path("huge_output.sh") +
                                        " inbox bob: output exceeded 1048576 bytes");
  }

  TEST_CASE("a missing script is a provider_error naming it")
  {
    StateDir state;
    auto provider = open_script("no_such_script.sh");
    auto listed = inbox(*provider, "bob");
    REQUIRE_FALSE(listed.ok());
    CHECK(listed.error().code == ErrorCode::provider_error);
    CHECK(listed.error().message.find("no such file or directory") != std::string::npos);
  }
}

} // namespace mailroom::providers::exec
