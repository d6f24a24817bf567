#pragma once

// mailroom schedule: its subcommands are registered by three files (schedule.cpp: list, show,
// pause, resume, cancel; schedule_add.cpp: add, edit; schedule_run.cpp: run-due, run-now).

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

namespace mailroom::cli {

void register_schedule_add(CLI::App& schedule, Invocation& invocation);
void register_schedule_edit(CLI::App& schedule, Invocation& invocation);
void register_schedule_run_due(CLI::App& schedule, Invocation& invocation);
void register_schedule_run_now(CLI::App& schedule, Invocation& invocation);

} // namespace mailroom::cli
