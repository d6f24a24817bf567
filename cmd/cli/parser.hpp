#pragma once

// Building the CLI11 parser from the command table, and what happens to argv before it parses.
// Only the invoked command is registered (CLI11 builds every option it is given, so registering
// all seventeen-plus commands on every run costs start-up time the hook path pays on every
// prompt); help, completion and the man-page test build the whole tree.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace mailroom::cli {

// One global option: accepted before or after the command (CLI11 fallthrough).
struct GlobalSpec {
  std::string_view names;      // CLI11 spelling: "-q,--quiet"
  std::string_view value_name; // "NAME" for an option that takes a value; empty for a flag
  std::string_view description;
  bool GlobalOptions::*flag = nullptr;                        // a flag's target
  std::optional<std::string> GlobalOptions::*value = nullptr; // an option's target
};

// Every global option, in help order (the table the pre-scan, the parser, completion and the man
// page test share).
std::span<const GlobalSpec> global_options();
// The global option spelt `word` ("--as", "-q"; no "=value"), or nullptr.
const GlobalSpec* find_global(std::string_view word);

// How much of the command tree to register.
enum class Scope {
  one,   // only `command` (with its options and subcommands)
  names, // every command's name and description, no options (root help, unknown commands)
  all,   // every command with all its options (completion, man page tests)
};

// Adds the global options and the commands `scope` asks for to `app`, binding them to `inv`;
// words that are neither a command nor an argument land in `stray`. Sets the help formatter.
void build_parser(CLI::App& app, Invocation& inv, std::vector<std::string>& stray, Scope scope,
                  std::string_view command = {});

// The command line after the rewrites the contract asks for, and the command it names.
struct Prepared {
  std::vector<std::string> args;      // what CLI11 parses (in order)
  std::vector<std::string> operands;  // the words after a `--` that follows the command word
  std::optional<std::string> command; // the command word when it is a known command
  std::size_t command_index = 0;      // its place in `args`
  std::optional<std::string> unknown; // `help WORD` with an unknown WORD: report it
  bool version_only = false;          // only global options, among them --version: no parser needed
  bool json = false;                  // --json was given (before any `--`)
  bool mail_alone = false;            // `mail` with no command after it (gc's "missing subcommand")
};

// Finds the command word (the first word that is not a global option or its value; `--` ends the
// global options) and rewrites: `mail <command> ...` runs `<command> ...` (a Gas City habit);
// `help [<command>...]` is `[<command>...] --help`. A `--` after the command word and the words
// after it are taken out into `operands` (CLI11 2.1 hands words after `--` back to the root once a
// subcommand's positional has its first value; add_operands gives them to the command instead).
Prepared prepare_args(std::vector<std::string> args);

// Parses `prepared` (exec_argv: watch's handler, cut off before) into a new `app` and into `inv`
// and `stray`: only the invoked command is built, or only the command names when the command word
// is unknown or missing (help, did-you-mean). Throws CLI::ParseError (CallForHelp included).
void parse_command_line(std::optional<CLI::App>& app, Invocation& inv, std::vector<std::string>& stray,
                        const Prepared& prepared, const std::vector<std::string>& exec_argv);

// Appends `operands` to the last positional of `command` (the words after `--`). Returns false
// when the command takes no positional.
bool add_operands(CLI::App& command, const std::vector<std::string>& operands);

// The name shown for an option's value: its type name without CLI11's validator suffix
// ("UINT:POSITIVE" -> "N"); empty for a flag.
std::string value_name(const CLI::Option& option);

// The option names of `command` (long and short, with dashes), for did-you-mean.
std::vector<std::string> option_names(const CLI::App& command);

} // namespace mailroom::cli
