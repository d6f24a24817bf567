#include "wake/run.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <doctest/doctest.h>

#include "testing/temp_dir.hpp"
#include "wake/target.hpp"

namespace mailroom::wake {

namespace {

using std::chrono::milliseconds;

std::string read_all(const std::filesystem::path& path)
{
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Waits (up to 10 s) until `path` exists and ends with a newline.
bool written(const std::filesystem::path& path)
{
  for (int i = 0; i < 200; ++i) {
    const std::string content = read_all(path);
    if (!content.empty() && content.back() == '\n') {
      return true;
    }
    std::this_thread::sleep_for(milliseconds(50));
  }
  return false;
}

} // namespace

TEST_SUITE("mailroom::wake::run_argv")
{
  TEST_CASE("exit 0 is sent; a failing command reports its status")
  {
    CHECK(run_argv({"true"}).outcome == Outcome::sent);
    const Report failed = run_argv({"sh", "-c", "exit 3"});
    CHECK(failed.outcome == Outcome::failed);
    CHECK(failed.reason == "exit status 3");
    CHECK(run_argv({"sh", "-c", "kill -TERM $$"}).reason == "signal: terminated");
    const Report missing = run_argv({"/nonexistent/wake-command"});
    CHECK(missing.outcome == Outcome::failed);
    CHECK(missing.reason == "cannot run \"/nonexistent/wake-command\": no such file or directory");
  }

  TEST_CASE("a command that hangs is killed at the limit, with what it started")
  {
    const auto dir = testing::make_temp_dir("wake-hang");
    const auto pid_file = dir / "pid";
    // The shell's background child is in its session too: the kill reaches it.
    const Report hung =
        run_argv({"sh", "-c", "sleep 600 & echo $! > \"$0\"; wait", pid_file.string()}, milliseconds(500));
    CHECK(hung.outcome == Outcome::failed);
    CHECK(hung.reason == "timed out after 500ms (killed)");
    REQUIRE(written(pid_file));
    const pid_t sleeper = std::stoi(read_all(pid_file));
    bool gone = false;
    for (int i = 0; i < 200 && !gone; ++i) {
      std::ifstream stat("/proc/" + std::to_string(sleeper) + "/stat");
      std::string line;
      std::getline(stat, line);
      gone = !stat || line.find(") Z") != std::string::npos;
      std::this_thread::sleep_for(milliseconds(50));
    }
    CHECK(gone);
  }

  TEST_CASE("the command has /dev/null for stdin, stdout and stderr and a session of its own")
  {
    const auto out = testing::make_temp_dir("wake-stdio") / "out";
    // Read before any redirection of the shell's own: fd 1 is the file while a `>` is in force.
    const std::string script = "a=$(readlink /proc/$$/fd/0); b=$(readlink /proc/$$/fd/1); "
                               "c=$(readlink /proc/$$/fd/2); s=$(cut -d' ' -f6 /proc/$$/stat); "
                               "printf '%s\\n%s\\n%s\\n%s %s\\n' \"$a\" \"$b\" \"$c\" $$ \"$s\" > \"$0\"";
    REQUIRE(run_argv({"sh", "-c", script, out.string()}).outcome == Outcome::sent);
    std::istringstream lines(read_all(out));
    std::string line;
    for (int fd = 0; fd < 3; ++fd) {
      std::getline(lines, line);
      CHECK(line == "/dev/null");
    }
    std::string pid;
    std::string session;
    lines >> pid >> session;
    CHECK(pid == session);
    CHECK(session != std::to_string(::getsid(0)));
  }

  TEST_CASE("a hostile subject reaches the command only as data")
  {
    const auto out = testing::make_temp_dir("wake-argv") / "argv";
    std::string subject = "$(touch pwned); \"x' `id` {to} \\ \n\x01 \xe2\x9c\x89 ";
    Facts facts;
    facts.to = "bob";
    facts.subject = subject + std::string(1, '\0') + "tail";
    // The wake command writes each argument it got, NUL-terminated, to the file.
    const std::vector<std::string> argv =
        expand_argv({"sh", "-c", "printf '%s\\0' \"$@\" > \"$0\"", out.string(), "{subject}", "{to}"}, facts);
    REQUIRE(argv.size() == 6);
    REQUIRE(run_argv(argv).outcome == Outcome::sent);
    CHECK(read_all(out) == subject + "tail" + std::string(1, '\0') + "bob" + std::string(1, '\0'));
    CHECK_FALSE(std::filesystem::exists("pwned"));
  }
}

TEST_SUITE("mailroom::wake::Launcher")
{
  TEST_CASE("a launched process runs on its own while the caller goes on, and is reaped")
  {
    const auto dir = testing::make_temp_dir("wake-launch");
    const auto go = dir / "go";
    const auto done = dir / "done";
    Launcher launcher;
    // It waits for the caller's go, so the caller provably did not wait for it.
    const auto pid = launcher.launch(
        {"sh", "-c", "while [ ! -e \"$0\" ]; do sleep 0.05; done; echo \"$WAKE_TEST\" > \"$1\"", go.string(),
         done.string()},
        {{"WAKE_TEST", "launched"}});
    REQUIRE(pid.ok());
    CHECK(*pid > 0);
    CHECK(launcher.reap() == 1);
    std::ofstream(go) << "go\n";
    REQUIRE(written(done));
    CHECK(read_all(done) == "launched\n");
    std::size_t running = 1;
    for (int i = 0; i < 200 && running > 0; ++i) {
      running = launcher.reap();
      std::this_thread::sleep_for(milliseconds(50));
    }
    CHECK(running == 0);
    CHECK_FALSE(launcher.launch({""}).ok());
  }
}

} // namespace mailroom::wake
