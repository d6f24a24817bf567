#include "util/subprocess.hpp"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

#include <doctest/doctest.h>

namespace mailroom::util {

namespace {

SubprocessResult run_sh(const std::string& script, std::string stdin_data = {},
                        std::chrono::milliseconds timeout = std::chrono::seconds(10))
{
  SubprocessOptions options;
  options.argv = {"/bin/sh", "-c", script, "sh"};
  options.stdin_data = std::move(stdin_data);
  options.timeout = timeout;
  auto result = run_subprocess(options);
  REQUIRE(result.ok());
  return std::move(result).value();
}

// True while `pid` exists and is not a zombie (an orphan zombie may wait for a reaper).
bool process_alive(pid_t pid)
{
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) {
    return false;
  }
  std::string line;
  std::getline(stat, line);
  const auto close_paren = line.rfind(')');
  return close_paren != std::string::npos && close_paren + 2 < line.size() && line[close_paren + 2] != 'Z';
}

bool wait_until_dead(pid_t pid)
{
  for (int i = 0; i < 200 && process_alive(pid); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return !process_alive(pid);
}

} // namespace

TEST_SUITE("mailroom::util::run_subprocess")
{
  TEST_CASE("captures stdout, stderr and the exit status")
  {
    const auto r = run_sh("printf out; printf err >&2; exit 3");
    CHECK(r.exited);
    CHECK(r.exit_status == 3);
    CHECK(r.stdout_text == "out");
    CHECK(r.stderr_text == "err");
    CHECK_FALSE(r.success());
    CHECK(r.describe_status() == "exit status 3");
  }

  TEST_CASE("arguments reach the program verbatim, without a shell")
  {
    SubprocessOptions options;
    options.argv = {"printf", "%s|", "$(echo no)", "a b", "; rm -rf x"};
    auto r = run_subprocess(options);
    REQUIRE(r.ok());
    CHECK(r->success());
    CHECK(r->stdout_text == "$(echo no)|a b|; rm -rf x|");
  }

  TEST_CASE("stdin is the given bytes then EOF; empty stdin is immediate EOF")
  {
    CHECK(run_sh("cat", std::string("a\0b", 3)).stdout_text == std::string("a\0b", 3));
    CHECK(run_sh("cat; echo done").stdout_text == "done\n");
    const std::string big(1024U * 1024U, 'x');
    CHECK(run_sh("wc -c", big).stdout_text.find("1048576") != std::string::npos);
  }

  TEST_CASE("a child that never reads a large stdin does not break the caller")
  {
    const std::string big(4U * 1024U * 1024U, 'x');
    const auto r = run_sh("exit 0", big);
    CHECK(r.success());
  }

  TEST_CASE("the caller's environment is inherited, plus extra variables")
  {
    ::setenv("MAILROOM_SUBPROCESS_TEST", "inherited", 1);
    SubprocessOptions options;
    options.argv = {"/bin/sh", "-c", "printf '%s/%s' \"$MAILROOM_SUBPROCESS_TEST\" \"$MAILROOM_IDENTITY\""};
    options.extra_env = {{"MAILROOM_IDENTITY", "alice"}};
    auto r = run_subprocess(options);
    ::unsetenv("MAILROOM_SUBPROCESS_TEST");
    REQUIRE(r.ok());
    CHECK(r->stdout_text == "inherited/alice");
  }

  TEST_CASE("descriptors the caller leaked without O_CLOEXEC are closed in the child")
  {
    const int leaked = ::open("/dev/null", O_RDONLY);
    REQUIRE(leaked > 2);
    const auto r = run_sh("if [ -e /proc/self/fd/" + std::to_string(leaked) +
                          " ]; then echo open; else echo closed; fi");
    ::close(leaked);
    CHECK(r.stdout_text == "closed\n");
  }

  TEST_CASE("the child runs in its own process group")
  {
    const auto r = run_sh("ps -o pgid= -p $$ | tr -d ' '; echo $$");
    const auto newline = r.stdout_text.find('\n');
    REQUIRE(newline != std::string::npos);
    CHECK(r.stdout_text.substr(0, newline) + "\n" == r.stdout_text.substr(newline + 1));
  }

  TEST_CASE("a timeout kills the whole process group")
  {
    const auto r = run_sh("sleep 60 & echo $!; sleep 60", {}, std::chrono::milliseconds(300));
    CHECK(r.timed_out);
    CHECK_FALSE(r.exited);
    CHECK(r.describe_status() == "signal: killed");
    const pid_t grandchild = std::stoi(r.stdout_text);
    CHECK(wait_until_dead(grandchild));
  }

  TEST_CASE("stdout past the cap kills the child and says so")
  {
    SubprocessOptions options;
    options.argv = {"/bin/sh", "-c", "yes"};
    options.stdout_cap = 100000;
    auto r = run_subprocess(options);
    REQUIRE(r.ok());
    CHECK(r->over_cap);
    CHECK_FALSE(r->success());
    CHECK(r->stdout_text.size() == 100000);
  }

  TEST_CASE("only the tail of stderr is kept")
  {
    SubprocessOptions options;
    options.argv = {"/bin/sh", "-c", "head -c 300000 /dev/zero | tr '\\0' a >&2; printf END >&2"};
    options.stderr_keep = 1000;
    auto r = run_subprocess(options);
    REQUIRE(r.ok());
    CHECK(r->stderr_text.size() == 1000);
    CHECK(r->stderr_text.substr(997) == "END");
  }

  TEST_CASE("a background child holding the pipes does not hold up the result")
  {
    const auto r = run_sh("sleep 30 & echo started", {}, std::chrono::seconds(20));
    CHECK(r.success());
    CHECK_FALSE(r.timed_out);
    CHECK(r.stdout_text == "started\n");
  }

  TEST_CASE("a script that exits successfully leaves no background job behind")
  {
    const auto r = run_sh("sleep 30 >/dev/null 2>&1 & echo $!; exit 0");
    CHECK(r.success());
    const pid_t grandchild = std::stoi(r.stdout_text);
    CHECK(wait_until_dead(grandchild));
  }

  TEST_CASE("a program that does not exist is a provider_error naming it")
  {
    SubprocessOptions options;
    options.argv = {"mailroom-no-such-program-xyz"};
    auto r = run_subprocess(options);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::provider_error);
    CHECK(r.error().message == "cannot run \"mailroom-no-such-program-xyz\": no such file or directory");
  }

  TEST_CASE("a signal death is described like Go")
  {
    CHECK(run_sh("kill -TERM $$").describe_status() == "signal: terminated");
  }

  TEST_CASE("a caller that ignores SIGPIPE still gives the child default handling")
  {
    const auto old = std::signal(SIGPIPE, SIG_IGN);
    SubprocessOptions options;
    options.argv = {"grep", "SigIgn", "/proc/self/status"};
    auto r = run_subprocess(options);
    std::signal(SIGPIPE, old);
    REQUIRE(r.ok());
    const auto colon = r->stdout_text.find(':');
    REQUIRE(colon != std::string::npos);
    const auto ignored = std::stoull(r->stdout_text.substr(colon + 1), nullptr, 16);
    CHECK((ignored & (1ULL << (SIGPIPE - 1))) == 0);
  }
}

} // namespace mailroom::util
