#pragma once

// Where a mailbox's wake goes (contract: "Reaching an idle agent (wake)" and its decisions after
// review): an argv run with the message's facts as data, an argv named in the config
// (`[wake.targets] NAME = [argv…]`, referred to as `@NAME`), or a tmux pane. Parsing, the stored
// form, the short display form, and placeholder expansion. Nothing here runs anything.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "util/environment.hpp"

namespace mailroom::wake {

enum class TargetKind {
  argv,  // run `argv` with placeholders substituted per word
  named, // run `[wake.targets] NAME` from the config
  tmux,  // type the wake line into a tmux pane
};

// The OS user and host a target was set from: only a process of that uid on that host runs it.
struct Setter {
  std::string host;
  std::int64_t uid = -1;

  // This process's host name (gethostname) and real uid.
  static Setter this_process();
  friend bool operator==(const Setter&, const Setter&) = default;
};

struct Target {
  TargetKind kind = TargetKind::argv;
  std::vector<std::string> argv; // argv: the words as given, placeholders not substituted
  std::string name;              // named: NAME of `[wake.targets]`, without the '@'
  std::string tmux_target;       // tmux: the pane as tmux names it (`SESSION:WINDOW.PANE`, `%3`)
  std::string tmux_socket;       // tmux: the absolute path of the server's socket
  Setter set_by;

  friend bool operator==(const Target&, const Target&) = default;
};

// The placeholders an argv word may hold ("{to}", "{id}", "{from}", "{subject}", "{count}").
// `{name}` with any other name of letters, digits and '_' is a usage error; other braces are text.
inline constexpr std::string_view k_argv_placeholders[] = {"to", "id", "from", "subject", "count"};

// Parses the words after `agents set NAME --wake`:
// - `tmux:TARGET` alone, or followed by `-S PATH` (a socket path) or `-L NAME` (a socket name in
//   tmux's directory, `${TMUX_TMPDIR:-/tmp}/tmux-UID/NAME`). Without either, the socket is the one
//   of the tmux the caller runs in (`$TMUX` up to its first ','), else tmux's default socket.
// - `@NAME` alone: a named argv (NAME of letters, digits, '_' and '-'); whether the config has it
//   is checked where the config is at hand (resolve_named).
// - anything else: an argv; its first word must not be empty and every placeholder must be known.
// `set_by` is recorded in the target. Reads `env` ($TMUX, $TMUX_TMPDIR) and the real uid.
// Errors: usage (exit 2), naming what does not parse: no words, `tmux:` with an empty target,
// extra words after a tmux target, a relative socket path, a bad @NAME, an unknown placeholder.
Result<Target> parse_target(const std::vector<std::string>& words, const util::Environment& env,
                            const Setter& set_by);

// Checks an argv as parse_target does (for `[wake.targets]` entries too). Errors: usage.
Result<void> check_argv(const std::vector<std::string>& argv);

// True when `name` can follow '@' (letters, digits, '_', '-'; 1 to 64 bytes).
bool valid_target_name(std::string_view name);

// A named target as the argv target `[wake.targets]` gives it (set_by kept); other kinds as they
// are. Errors: usage when `named` has no such name or its argv does not pass check_argv.
Result<Target> resolve_named(const Target& target,
                             const std::map<std::string, std::vector<std::string>>& named);

// True when a process of `here` may run `target`: the same host and uid as set it.
bool runs_here(const Target& target, const Setter& here);

// The stored form, a JSON object: {"kind":"argv","argv":[…]}, {"kind":"named","name":"NAME"} or
// {"kind":"tmux","target":"…","socket":"…"}, each with "host" and "uid".
nlohmann::json to_stored(const Target& target);
// Reads the stored form back. Errors: store_error when it is not one (a kind or field missing or
// of the wrong type, an argv that no longer passes check_argv).
Result<Target> from_stored(const nlohmann::json& stored);

// The short form for `agents list` and `team`: `tmux:main:0.1`, `@pager`, or the argv words joined
// by spaces, cut to 60 bytes (at a character boundary) with "…". Not escaped: pass it through the output
// gate.
std::string display(const Target& target);

// What a wake's message says, substituted into argv words.
struct Facts {
  std::string to;         // the recipient mailbox
  std::string id;         // the message id (the newest one when the wake covers several)
  std::string from;       // its sender
  std::string subject;    // its subject
  std::int64_t count = 1; // how many messages the wake covers (deferred ones included)
};

// `argv` with each placeholder replaced by its fact, per word: a substituted value never splits or
// joins words and is never interpreted (no shell runs). NUL bytes are dropped from values (an argv
// word cannot hold one); every other byte is passed as it is. Words without placeholders are kept.
std::vector<std::string> expand_argv(const std::vector<std::string>& argv, const Facts& facts);

} // namespace mailroom::wake
