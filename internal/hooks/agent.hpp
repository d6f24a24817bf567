#pragma once

// The coding agents mailroom answers hooks for, and what each one expects of a hook: the events
// the reminder is installed on, the event assumed when no payload names one, the settings files.

#include <array>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace mailroom::hooks {

enum class Agent { claude, codex, gemini };

// Every agent, in the order help text lists them.
inline constexpr std::array k_agents = {Agent::claude, Agent::codex, Agent::gemini};

// "claude", "codex" or "gemini".
std::string_view to_string(Agent agent);

// Parses an agent name (exact, lower case). Errors: usage `unknown <noun> "<text>"`, with a
// did-you-mean hint when a name is close, else a hint listing the three names.
Result<Agent> parse_agent(std::string_view text, std::string_view noun = "agent");

// The event answered when neither --hook-event nor a payload names one: UserPromptSubmit for
// Claude Code and Codex, BeforeAgent for Gemini CLI (both fire once per prompt).
std::string_view default_event(Agent agent);

// The events `hooks install` adds the reminder to, per-prompt event first:
// Claude Code and Codex: UserPromptSubmit, SessionStart; Gemini CLI: BeforeAgent, SessionStart.
std::array<std::string_view, 2> hook_events(Agent agent);

// The settings file, relative to the project directory or to $HOME (both the same shape):
// ".claude/settings.json", ".codex/hooks.json", ".gemini/settings.json".
std::string_view settings_file(Agent agent);

} // namespace mailroom::hooks
