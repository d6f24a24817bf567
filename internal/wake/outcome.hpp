#pragma once

// What one wake attempt did, as the wake drivers (tmux.hpp, run.hpp) report it. The store side
// records it in the wake ledger; its own outcomes (deferred, combined, unreachable, skipped) are
// not made here.

#include <string>
#include <string_view>

namespace mailroom::wake {

enum class Outcome {
  sent,      // the line was typed and submitted (tmux), or the command exited 0 (argv)
  failed,    // the wake ran and did not succeed: `reason` says why
  not_agent, // tmux: the pane's foreground command is not one of agent_commands; nothing typed
  not_idle,  // tmux: the pane showed activity within idle_after (or is in a mode); nothing typed
  no_pane,   // tmux: no such pane, or no server on the socket; nothing typed
};

// The outcome's name in JSON and the ledger: "sent", "failed", "not_agent", "not_idle", "no_pane".
std::string_view to_string(Outcome outcome);

struct Report {
  Outcome outcome = Outcome::failed;
  std::string reason; // empty for sent; one line in lower case otherwise ("exit status 3")
};

} // namespace mailroom::wake
