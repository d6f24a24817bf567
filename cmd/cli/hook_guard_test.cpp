// The hook guard's reading of raw words (every spelling of a hook line is one) and the hook
// deadline (a budget that runs out ends the process with exit 0 and one line; an answer being
// written is never cut, and once written nothing after it can hold the process).

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hook_deadline.hpp"
#include "hook_guard.hpp"

namespace mailroom::cli {

namespace {

bool hook(const std::vector<std::string>& args)
{
  return read_hook_words(args).hook;
}

// Runs `body` in a forked child with stdout and stderr captured; returns the child's exit status
// (or -signal) and what it wrote.
struct ChildRun {
  int status = -1;
  std::string out;
  std::string err;
};

std::string drain_fd(int fd)
{
  std::string text;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0) {
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

template <typename Fn> ChildRun run_in_child(Fn body)
{
  int out[2];
  int err[2];
  REQUIRE(::pipe(out) == 0);
  REQUIRE(::pipe(err) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    ::close(out[0]);
    ::close(err[0]);
    body();
    ::_exit(42); // the body returned: the deadline did not end the process
  }
  ::close(out[1]);
  ::close(err[1]);
  ChildRun run;
  run.out = drain_fd(out[0]);
  run.err = drain_fd(err[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  return run;
}

void write_out(std::string_view text)
{
  (void)!::write(STDOUT_FILENO, text.data(), text.size());
}

} // namespace

TEST_SUITE("mailroom::cli::hook_guard")
{
  TEST_CASE("every spelling of a hook line is one, whatever fails later")
  {
    CHECK(hook({"check", "--inject"}));
    CHECK(hook({"check", "--hook-format", "claude"}));
    CHECK(hook({"check", "--hook-format=codex"}));
    CHECK(hook({"mail", "check", "--inject"}));
    CHECK(hook({"--config", "bad.toml", "mail", "check", "--inject"}));
    CHECK(hook({"--config=bad.toml", "mail", "check", "--inject"}));
    CHECK(hook({"mail", "check", "--hook-format", "claude", "--hook-evnt", "X"}));
    CHECK(hook({"--hook-evnt", "X", "check", "--inject"})); // an unknown option's value
    CHECK(hook({"--jsno", "mail", "check", "--inject"}));   // a misspelt flag
    CHECK(hook({"--as", "check", "check", "--inject"}));    // --as takes "check" as its value
    CHECK(hook({"--json", "--db", "x.db", "--as", "bob", "check", "--inject", "--config", "y"}));
    CHECK(hook({"mail", "--as", "bob", "check", "--inject"}));
    CHECK(hook({"check", "bob", "--limit", "2", "--inject"}));
    CHECK(hook({"-q", "check", "--inject=true"}));
  }

  TEST_CASE("anything else is not a hook line")
  {
    CHECK_FALSE(hook({}));
    CHECK_FALSE(hook({"check"}));
    CHECK_FALSE(hook({"check", "--hook-evnt", "X"}));
    CHECK_FALSE(hook({"inbox", "--inject"}));
    CHECK_FALSE(hook({"send", "bob", "check", "--inject"}));
    CHECK_FALSE(hook({"--", "check", "--inject"}));
    CHECK_FALSE(hook({"check", "--", "--inject"}));
    CHECK_FALSE(hook({"mail", "mail", "check", "--inject"}));
    CHECK_FALSE(hook({"--as", "bob", "inbox", "check", "--inject"}));
  }

  TEST_CASE("--json and --budget are read from the raw words")
  {
    const HookWords words = read_hook_words({"--json", "mail", "check", "--inject", "--budget", "250ms"});
    CHECK(words.hook);
    CHECK(words.json);
    REQUIRE(words.budget);
    CHECK(*words.budget == "250ms");
    CHECK(read_hook_words({"check", "--hook-format", "claude", "--budget=2s"}).budget ==
          std::optional<std::string>("2s"));
    CHECK(read_hook_words({"check", "--inject", "--json"}).json);
    CHECK_FALSE(read_hook_words({"check", "--inject"}).budget);
  }

  TEST_CASE("a budget that runs out ends the process with exit 0, one stderr line and nothing on stdout")
  {
    const ChildRun run = run_in_child([] {
      auto deadline = HookDeadline::arm(HookDeadline::Clock::now(), std::chrono::milliseconds(20), false);
      if (!deadline.ok()) {
        ::_exit(43);
      }
      std::this_thread::sleep_for(std::chrono::seconds(30)); // a lock that is never released
    });
    CHECK(run.status == 0);
    CHECK(run.out.empty());
    CHECK(run.err == timeout_line(std::chrono::milliseconds(20), false));
    CHECK(run.err.find("20ms") != std::string::npos);
  }

  TEST_CASE("the configured budget moves the deadline measured from the same start")
  {
    const ChildRun run = run_in_child([] {
      const auto start = HookDeadline::Clock::now();
      auto deadline = HookDeadline::arm(start, std::chrono::seconds(30), true);
      if (!deadline.ok()) {
        ::_exit(43);
      }
      (*deadline)->rearm(std::chrono::milliseconds(30));
      std::this_thread::sleep_for(std::chrono::seconds(30));
    });
    CHECK(run.status == 0);
    CHECK(run.out.empty());
    CHECK(run.err == timeout_line(std::chrono::milliseconds(30), true)); // the JSON error line
  }

  TEST_CASE("an answer being written is never cut, and nothing after it outlives the deadline")
  {
    const ChildRun run = run_in_child([] {
      auto deadline = HookDeadline::arm(HookDeadline::Clock::now(), std::chrono::milliseconds(20), false);
      if (!deadline.ok() || !(*deadline)->begin_answer()) {
        ::_exit(43);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100)); // the deadline passes meanwhile
      write_out("the answer\n");
      (*deadline)->answered(); // past the deadline: ends here
      write_out("after\n");
    });
    CHECK(run.status == 0);
    CHECK(run.out == "the answer\n");
    CHECK(run.err.empty());
  }

  TEST_CASE("after the answer, the deadline ends whatever still runs, silently")
  {
    const ChildRun run = run_in_child([] {
      auto deadline = HookDeadline::arm(HookDeadline::Clock::now(), std::chrono::milliseconds(200), false);
      if (!deadline.ok() || !(*deadline)->begin_answer()) {
        ::_exit(43);
      }
      write_out("the answer\n");
      (*deadline)->answered();
      std::this_thread::sleep_for(std::chrono::seconds(30)); // a presence write stuck on a lock
    });
    CHECK(run.status == 0);
    CHECK(run.out == "the answer\n");
    CHECK(run.err.empty());
  }

  TEST_CASE("a deadline disarmed in time never fires")
  {
    const ChildRun run = run_in_child([] {
      {
        auto deadline = HookDeadline::arm(HookDeadline::Clock::now(), std::chrono::milliseconds(50), false);
        if (!deadline.ok()) {
          ::_exit(43);
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      write_out("still here\n");
    });
    CHECK(run.status == 42);
    CHECK(run.out == "still here\n");
  }

  TEST_CASE("HookOutput holds the answer back and keeps one error line")
  {
    StringOutput inner;
    HookOutput output(inner, nullptr);
    REQUIRE(output.out("part one, ").ok());
    REQUIRE(output.out("part two\n").ok());
    CHECK(inner.out_text().empty());
    output.answer(true);
    CHECK(inner.out_text() == "part one, part two\n");

    StringOutput failed_inner;
    HookOutput failed(failed_inner, nullptr);
    REQUIRE(failed.out("half an answer").ok());
    failed.err("mailroom check: first\nhint: second\n");
    failed.err("mailroom check: third\n");
    CHECK(failed.failed());
    failed.answer(false);
    CHECK(failed_inner.out_text().empty());
    CHECK(failed_inner.err_text() == "mailroom check: first\n");
  }
}

} // namespace mailroom::cli
