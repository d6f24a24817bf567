#include "wake/tmux.hpp"

#include <chrono>
#include <cstdlib>
#include <thread>

#include <doctest/doctest.h>

#include "testing/temp_dir.hpp"
#include "util/subprocess.hpp"

namespace mailroom::wake {

namespace {

using std::chrono::milliseconds;

std::int64_t wall_ms()
{
  return std::chrono::duration_cast<milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A pause that really sleeps (the pane needs the time) and remembers what it was asked for.
class CountingPause final : public util::Pause {
public:
  bool sleep_for(milliseconds length, int fd) override
  {
    asked.push_back(length);
    return m_real.sleep_for(length, fd);
  }
  std::vector<milliseconds> asked;

private:
  util::RealPause m_real;
};

bool have_tmux()
{
  const char* path = std::getenv("PATH"); // NOLINT(concurrency-mt-unsafe): read once by a test
  return util::can_execute("tmux", path == nullptr ? "" : path);
}

// A private tmux server (its own socket, no user config) with one 120x30 session "main" running
// `command`; killed when the test ends.
class TmuxServer {
public:
  explicit TmuxServer(const std::vector<std::string>& command)
      : m_socket((testing::make_temp_dir("tmux") / "sock").string())
  {
    std::vector<std::string> argv{"-f",  "/dev/null", "new-session", "-d", "-x",
                                  "120", "-y",        "30",          "-s", "main"};
    argv.insert(argv.end(), command.begin(), command.end());
    const auto started = tmux(argv);
    REQUIRE(started.success());
  }
  TmuxServer(const TmuxServer&) = delete;
  TmuxServer& operator=(const TmuxServer&) = delete;
  ~TmuxServer()
  {
    util::SubprocessOptions options;
    options.argv = {"tmux", "-S", m_socket, "kill-server"};
    (void)util::run_subprocess(options);
  }

  util::SubprocessResult tmux(std::vector<std::string> args) const
  {
    util::SubprocessOptions options;
    options.argv = {"tmux", "-S", m_socket};
    options.argv.insert(options.argv.end(), args.begin(), args.end());
    options.timeout = std::chrono::seconds(10);
    auto result = util::run_subprocess(options);
    REQUIRE(result.ok());
    return std::move(result).value();
  }

  // Waits (up to 10 s) until the pane's foreground command is `command`.
  void wait_for_command(std::string_view command) const
  {
    for (int i = 0; i < 200; ++i) {
      if (text_of(tmux({"display-message", "-p", "-t", "main", "#{pane_current_command}"}).stdout_text) ==
          command) {
        return;
      }
      std::this_thread::sleep_for(milliseconds(50));
    }
    FAIL("the pane never ran " << command);
  }

  std::string screen() const { return tmux({"capture-pane", "-p", "-t", "main"}).stdout_text; }

  // Waits (up to 10 s) until the pane shows `text` `times` times or more; true when it does.
  bool shows(std::string_view text, int times = 1) const
  {
    for (int i = 0; i < 200; ++i) {
      if (count(screen(), text) >= times) {
        return true;
      }
      std::this_thread::sleep_for(milliseconds(50));
    }
    return false;
  }

  Target target(std::string pane = "main") const
  {
    Target t;
    t.kind = TargetKind::tmux;
    t.tmux_target = std::move(pane);
    t.tmux_socket = m_socket;
    return t;
  }

  static std::string text_of(std::string_view out) { return std::string(out.substr(0, out.find('\n'))); }

  static int count(std::string_view haystack, std::string_view needle)
  {
    int found = 0;
    for (auto at = haystack.find(needle); at != std::string_view::npos; at = haystack.find(needle, at + 1)) {
      ++found;
    }
    return found;
  }

private:
  std::string m_socket;
};

TmuxOptions cat_is_the_agent()
{
  TmuxOptions options;
  options.agent_commands = {"cat"};
  return options;
}

// Far enough past any activity of a pane started now.
std::int64_t an_hour_later()
{
  return wall_ms() + 3600 * 1000;
}

const std::string k_line = "You have mail: run 'mailroom --as bob inbox'";

} // namespace

TEST_SUITE("mailroom::wake::judge_pane")
{
  TEST_CASE("the agent command, a mode, and idle by pane or else by window")
  {
    TmuxOptions options;
    PaneFacts facts;
    facts.command = "claude";
    facts.window_activity = 1000;
    CHECK(judge_pane(facts, options, 1010 * 1000).outcome == Outcome::sent);
    const Report busy = judge_pane(facts, options, 1009 * 1000 + 999);
    CHECK(busy.outcome == Outcome::not_idle);
    CHECK(busy.reason == "the window was active 9s ago, less than idle_after (10s)");
    facts.pane_activity = 1005; // a tmux with #{pane_activity} judges by the pane
    CHECK(judge_pane(facts, options, 1010 * 1000).reason ==
          "the pane was active 5s ago, less than idle_after (10s)");
    facts.pane_activity.reset();
    facts.in_mode = true;
    CHECK(judge_pane(facts, options, 2000 * 1000).outcome == Outcome::not_idle);
    facts.command = "bash";
    const Report other = judge_pane(facts, options, 2000 * 1000);
    CHECK(other.outcome == Outcome::not_agent);
    CHECK(other.reason == "the pane runs \"bash\", not one of [wake] agent_commands");
  }
}

TEST_SUITE("mailroom::wake::wake_tmux")
{
  TEST_CASE("a line with a control character is never typed")
  {
    Target target;
    target.kind = TargetKind::tmux;
    target.tmux_target = "main";
    target.tmux_socket = "/nonexistent/sock";
    CountingPause pause;
    const Report report = wake_tmux(target, "mail\rrm -rf ~", TmuxOptions{}, an_hour_later(), pause);
    CHECK(report.outcome == Outcome::failed);
    CHECK(report.reason == "the line is empty or holds a control character");
  }

  TEST_CASE("the line appears in an idle agent's pane and is submitted")
  {
    if (!have_tmux()) {
      MESSAGE("tmux is not installed: skipped");
      return;
    }
    const TmuxServer server({"cat"});
    server.wait_for_command("cat");
    CountingPause pause;
    const Report report =
        wake_tmux(server.target("main:0.0"), k_line, cat_is_the_agent(), an_hour_later(), pause);
    CHECK(report.outcome == Outcome::sent);
    CHECK(report.reason.empty());
    // The terminal echoed the typed line and cat printed it after Enter: it left the input row.
    CHECK(server.shows(k_line, 2));
    REQUIRE(pause.asked.size() >= 2);
    CHECK(pause.asked[0] == milliseconds(300)); // submit_delay between the text and its Enter
  }

  TEST_CASE("nothing is typed when the pane's command is not an agent command")
  {
    if (!have_tmux()) {
      MESSAGE("tmux is not installed: skipped");
      return;
    }
    const TmuxServer server({"sleep", "600"});
    server.wait_for_command("sleep");
    CountingPause pause;
    const Report report = wake_tmux(server.target(), k_line, cat_is_the_agent(), an_hour_later(), pause);
    CHECK(report.outcome == Outcome::not_agent);
    CHECK(report.reason == "the pane runs \"sleep\", not one of [wake] agent_commands");
    CHECK(pause.asked.empty());
    CHECK(TmuxServer::count(server.screen(), "You have mail") == 0);
  }

  TEST_CASE("nothing is typed into a pane active within idle_after")
  {
    if (!have_tmux()) {
      MESSAGE("tmux is not installed: skipped");
      return;
    }
    const TmuxServer server({"cat"});
    server.wait_for_command("cat");
    CountingPause pause;
    // The session started a moment ago: its activity is now.
    const Report report = wake_tmux(server.target(), k_line, cat_is_the_agent(), wall_ms(), pause);
    CHECK(report.outcome == Outcome::not_idle);
    CHECK(pause.asked.empty());
    CHECK(TmuxServer::count(server.screen(), "You have mail") == 0);
  }

  TEST_CASE("Enter is pressed three times, then failed, when the line stays in the input")
  {
    if (!have_tmux()) {
      MESSAGE("tmux is not installed: skipped");
      return;
    }
    // Enter sends CR; without icrnl the terminal keeps it on the line and cat never gets a line.
    const TmuxServer server({"sh", "-c", "stty -icrnl -echoctl && exec cat"});
    server.wait_for_command("cat");
    CountingPause pause;
    const Report report = wake_tmux(server.target(), "ping", cat_is_the_agent(), an_hour_later(), pause);
    CHECK(report.outcome == Outcome::failed);
    CHECK(report.reason == "the line stayed in the pane's input after 3 Enters");
    CHECK(pause.asked.size() == 4); // after typing, then after each Enter
    CHECK(TmuxServer::count(server.screen(), "ping") == 1);
  }

  TEST_CASE("no pane: a window that is not there, a server that is not running")
  {
    if (!have_tmux()) {
      MESSAGE("tmux is not installed: skipped");
      return;
    }
    CountingPause pause;
    {
      const TmuxServer server({"cat"});
      server.wait_for_command("cat");
      // display-message alone would answer for the current pane; the wake must not type there.
      const Report missing =
          wake_tmux(server.target("main:5"), k_line, cat_is_the_agent(), an_hour_later(), pause);
      CHECK(missing.outcome == Outcome::no_pane);
      CHECK(missing.reason == "can't find window: 5");
      CHECK(TmuxServer::count(server.screen(), "You have mail") == 0);
    }
    Target gone;
    gone.kind = TargetKind::tmux;
    gone.tmux_target = "main";
    gone.tmux_socket = (testing::make_temp_dir("tmux-none") / "sock").string();
    const Report no_server = wake_tmux(gone, k_line, cat_is_the_agent(), an_hour_later(), pause);
    CHECK(no_server.outcome == Outcome::no_pane);
    CHECK(no_server.reason.find("error connecting to") != std::string::npos);
    CHECK(pause.asked.empty());
  }
}

} // namespace mailroom::wake
