#pragma once

// The built-in tmux wake (contract, decisions after review, "tmux on Debian 12"): type one line
// into an agent's pane when, and only when, the pane runs an agent command and has been idle, then
// submit it and check that it left the input. Every tmux call is an argv through util/subprocess
// with a short time limit, on the socket the target was set from (`tmux -S SOCKET …`).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "util/sleep.hpp"
#include "wake/outcome.hpp"
#include "wake/target.hpp"

namespace mailroom::wake {

// `[wake] line`'s default.
inline constexpr std::string_view k_default_line = "You have mail: run 'mailroom inbox'";

// Checks a configured line: only the placeholders `{to}` and `{count}` (message-derived ones are
// for argv targets), no control characters, not empty, at most 200 bytes.
// Errors: usage, naming the offending placeholder or character.
Result<void> check_line(std::string_view line);

// `line` (checked by check_line) with `{to}` and `{count}` substituted. With `as_name` (the caller
// says the agent's default identity is not the mailbox), `--as NAME` goes after the first
// "mailroom " in the line ("run 'mailroom --as bob inbox'"), or at its end when it names no
// "mailroom ". Control characters in the values become '?', so nothing but text is typed.
std::string expand_line(std::string_view line, std::string_view to, std::int64_t count,
                        const std::optional<std::string>& as_name = std::nullopt);

struct TmuxOptions {
  // `[wake] agent_commands`: the pane's #{pane_current_command} must be one of these.
  std::vector<std::string> agent_commands{"claude", "codex", "gemini", "node"};
  // `[wake] idle_after`: the pane (the window, on a tmux without #{pane_activity}) must have shown
  // no activity for this long.
  std::chrono::milliseconds idle_after{10000};
  // `[wake] submit_delay`: the pause after typing the line, and after each Enter, before looking.
  std::chrono::milliseconds submit_delay{300};
  // The time limit of each tmux call.
  std::chrono::milliseconds call_limit{2000};
  // The program run as tmux (searched in $PATH without a '/').
  std::string tmux_program = "tmux";
};

// What tmux says about a pane, and the rule that decides whether it may be typed into.
struct PaneFacts {
  std::string command;                       // #{pane_current_command}
  std::optional<std::int64_t> pane_activity; // seconds since the epoch; none on tmux 3.3a
  std::int64_t window_activity = 0;          // seconds since the epoch
  bool in_mode = false;                      // copy mode or another mode: keys would go there
};

// not_agent when `facts.command` is not in `options.agent_commands`; not_idle when the pane is in
// a mode, or its activity (#{pane_activity} when tmux has it, else #{window_activity}) is less
// than idle_after before `now_ms` (milliseconds since the epoch); else sent (meaning: go ahead).
Report judge_pane(const PaneFacts& facts, const TmuxOptions& options, std::int64_t now_ms);

// Wakes the pane of `target` (kind tmux) with `line` (already expanded; typed literally):
// 1. resolves the pane (no_pane when the target or the server is not there) and reads its facts;
// 2. judge_pane at `now_ms`: nothing is typed unless it says go ahead;
// 3. `send-keys -l` the line to the resolved pane (by its %id), `pause` for submit_delay, then a
//    separate `send-keys Enter`, pause, and `capture-pane -p`: sent once the line has left the row
//    it was typed on; otherwise Enter is pressed again, at most twice more, then failed.
// A line that is empty or holds a control character is failed before tmux is asked anything.
// Sleeps only through `pause`. Changes nothing but the pane's input.
Report wake_tmux(const Target& target, std::string_view line, const TmuxOptions& options, std::int64_t now_ms,
                 util::Pause& pause);

} // namespace mailroom::wake
