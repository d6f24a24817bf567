#include "util/child.hpp"

#include <csignal>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include <doctest/doctest.h>

namespace mailroom::util {

namespace {

using Clock = Child::Clock;
using std::chrono::milliseconds;

Child spawn_sh(const std::string& script, std::string stdin_data = {}, std::size_t cap = 1U << 20U)
{
  SubprocessOptions options;
  options.argv = {"/bin/sh", "-c", script, "sh"};
  options.stdin_data = std::move(stdin_data);
  options.stdout_cap = cap;
  auto child = Child::spawn(options);
  REQUIRE(child.ok());
  return std::move(child).value();
}

} // namespace

TEST_SUITE("mailroom::util::Child")
{
  TEST_CASE("pump returns when the child ends, with its output")
  {
    Child child = spawn_sh("cat; echo done", "body");
    CHECK(child.pump(Clock::now() + std::chrono::seconds(10)) == Child::Event::ended);
    CHECK(child.ended());
    const SubprocessResult r = child.finish();
    CHECK(r.success());
    CHECK(r.stdout_text == "bodydone\n");
  }

  TEST_CASE("pump returns at its deadline and can be called again")
  {
    Child child = spawn_sh("sleep 0.3; echo late");
    const auto start = Clock::now();
    CHECK(child.pump(start + milliseconds(20)) == Child::Event::deadline);
    CHECK_FALSE(child.ended());
    CHECK(child.pump(start + std::chrono::seconds(10)) == Child::Event::ended);
    CHECK(child.finish().stdout_text == "late\n");
  }

  TEST_CASE("a readable interrupt descriptor ends the pump, and the group can be told to stop")
  {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    Child child = spawn_sh("trap 'echo bye; exit 0' TERM; while :; do sleep 0.01; done");
    // Give the shell time to set its trap.
    CHECK(child.pump(Clock::now() + milliseconds(300), fds[0]) == Child::Event::deadline);
    REQUIRE(::write(fds[1], "x", 1) == 1);
    CHECK(child.pump(Clock::now() + std::chrono::seconds(10), fds[0]) == Child::Event::interrupted);
    child.signal_group(SIGTERM);
    CHECK(child.pump(Clock::now() + std::chrono::seconds(10)) == Child::Event::ended);
    const SubprocessResult r = child.finish();
    CHECK(r.exited);
    CHECK(r.stdout_text == "bye\n");
    ::close(fds[0]);
    ::close(fds[1]);
  }

  TEST_CASE("a handler that never reads stdin and floods stdout cannot wedge the caller")
  {
    // 4 MB of stdin nobody reads; stdout far past the cap.
    Child child = spawn_sh("exec head -c 50000000 /dev/zero", std::string(4U << 20U, 'x'), 1U << 20U);
    CHECK(child.pump(Clock::now() + std::chrono::seconds(20)) == Child::Event::ended);
    const SubprocessResult r = child.finish();
    CHECK(r.over_cap);
    CHECK_FALSE(r.success());
    CHECK(r.stdout_text.size() == 1U << 20U);
  }

  TEST_CASE("kill_for_timeout kills the group and says so; finish reaps a running child")
  {
    Child child = spawn_sh("sleep 30 & sleep 30");
    CHECK(child.pump(Clock::now() + milliseconds(10)) == Child::Event::deadline);
    child.kill_for_timeout();
    CHECK(child.pump(Clock::now() + std::chrono::seconds(10)) == Child::Event::ended);
    const SubprocessResult r = child.finish();
    CHECK(r.timed_out);
    CHECK(r.term_signal == SIGKILL);
    Child other = spawn_sh("sleep 30");
    const auto start = Clock::now();
    CHECK(other.finish().term_signal == SIGKILL);
    CHECK(Clock::now() - start < std::chrono::seconds(5));
  }

  TEST_CASE("can_execute follows execvp's lookup")
  {
    CHECK(can_execute("sh", "/usr/bin:/bin"));
    CHECK(can_execute("/bin/sh", ""));
    CHECK_FALSE(can_execute("sh", "/nonexistent"));
    const std::string plain = "/tmp/mailroom-child-test-" + std::to_string(::getpid());
    std::FILE* file = std::fopen(plain.c_str(), "w");
    REQUIRE(file != nullptr);
    std::fclose(file);
    ::chmod(plain.c_str(), 0644);
    CHECK_FALSE(can_execute(plain, "/bin"));
    ::unlink(plain.c_str());
    CHECK_FALSE(can_execute("/bin", "/bin"));
    CHECK_FALSE(can_execute("", "/bin"));
  }
}

} // namespace mailroom::util
