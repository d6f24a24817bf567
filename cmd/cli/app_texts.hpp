#pragma once

// What mailroom says about itself before any command runs: its version, the list of commands, and
// an unknown command (app.cpp prints them).

#include <string>

#include "base/result.hpp"
#include "output.hpp"

namespace mailroom::cli {

// `mailroom --version` (with --json: {"schema_version":1,"version","stores":[…]}). Returns exit 0.
int print_version(Output& out, bool json);

// The usage line and every command with its one-line description.
std::string command_list();

// A usage error for `word`, which names no command, with a did-you-mean hint.
Error unknown_command(const std::string& word);

} // namespace mailroom::cli
