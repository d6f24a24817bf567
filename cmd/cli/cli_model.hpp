#pragma once

// The whole command line as data, read from the same CLI11 parser `run` uses (every command of
// the table registered), so shell completion, the man-page test and help never drift from it.

#include <string>
#include <vector>

namespace mailroom::cli {

struct OptionInfo {
  std::vector<std::string> names; // "--limit", "-n"
  std::string value_name;         // "N", "NAME", "PATH"; empty for a flag
  std::string description;
};

struct CommandInfo {
  std::string name;
  std::string description;
  std::vector<std::string> aliases;     // "rm" for agents remove
  std::vector<OptionInfo> options;      // without -h/--help
  std::vector<std::string> positionals; // "id", "ids", "mailbox"
  std::vector<CommandInfo> subcommands;
};

struct CliModel {
  std::vector<OptionInfo> globals; // with -h/--help
  std::vector<CommandInfo> commands;
};

// Builds the full parser from the command table and describes it. Never opens config or store.
CliModel describe_cli();

} // namespace mailroom::cli
