#pragma once

// What a word on a mailroom command line may be completed with, decided from the parser's own
// description (cli_model.hpp): shared by the bash, zsh and fish generators
// (completion_scripts.cpp).

#include <string>
#include <string_view>
#include <vector>

#include "cli_model.hpp"

namespace mailroom::cli::completion {

// mailboxes: registered names; recipients: those, the configured @groups and @all; ids: message
// ids of the caller's unread mail (at most k_max_ids: cheap in a mailbox of thousands); types:
// the built-in message types and the configured ones.
enum class Kind { none, mailboxes, recipients, ids, types, files, words };

// The most message ids an id completion lists.
constexpr int k_max_ids = 100;

struct Completion {
  Kind kind = Kind::none;
  std::string words; // Kind::words: the choices, space-separated
};

constexpr std::string_view k_shells = "bash zsh fish";

// For an option's value, by its value name (NAME, PATH, LEVEL, ...).
Completion for_value(const std::string& value_name);

// Every top-level command name, space-separated.
std::string command_names(const CliModel& model);

// The first positional of `command` (a leaf) under the top-level command `top`.
Completion for_positional(const CliModel& model, const std::string& top, const CommandInfo& command);

// Every name of every option; the names of the options that take a value.
std::vector<std::string> all_names(const std::vector<OptionInfo>& options);
std::vector<std::string> value_names(const std::vector<OptionInfo>& options);

// `text` in single quotes for a shell word.
std::string shell_quote(std::string_view text);

// The bash and zsh functions that list the dynamic words (_mailroom_mailboxes, _mailroom_groups,
// _mailroom_types, _mailroom_ids), each calling `mailroom` with the global options given.
std::string posix_helpers();

// The built-in message type names, space-separated.
std::string builtin_type_names();

// The fish script (completion_fish.cpp).
std::string fish_script(const CliModel& model);

} // namespace mailroom::cli::completion
