#include "hooks/agent.hpp"

#include "mail/address.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace mailroom::hooks {

std::string_view to_string(Agent agent)
{
  switch (agent) {
  case Agent::claude:
    return "claude";
  case Agent::codex:
    return "codex";
  case Agent::gemini:
    return "gemini";
  }
  return "claude";
}

Result<Agent> parse_agent(std::string_view text, std::string_view noun)
{
  std::vector<std::string> names;
  for (const Agent agent : k_agents) {
    if (to_string(agent) == text) {
      return agent;
    }
    names.emplace_back(to_string(agent));
  }
  // The mailbox suggester is an edit-distance match over plain names, which is all this needs.
  const auto close = mail::suggest_mailboxes(text, names, 1);
  return make_error(ErrorCode::usage, fmt::format("unknown {} \"{}\"", noun, text),
                    close.empty() ? "use claude, codex or gemini"
                                  : fmt::format("did you mean \"{}\"?", close.front()));
}

std::string_view default_event(Agent agent)
{
  return agent == Agent::gemini ? "BeforeAgent" : "UserPromptSubmit";
}

std::array<std::string_view, 2> hook_events(Agent agent)
{
  return {default_event(agent), "SessionStart"};
}

std::string_view settings_file(Agent agent)
{
  switch (agent) {
  case Agent::claude:
    return ".claude/settings.json";
  case Agent::codex:
    return ".codex/hooks.json";
  case Agent::gemini:
    return ".gemini/settings.json";
  }
  return ".claude/settings.json";
}

} // namespace mailroom::hooks
