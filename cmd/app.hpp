#pragma once

namespace mailroom::cli {

// Parses the command line, runs one command and returns the contract's exit code (0–5).
// The only place that catches exceptions and chooses stdout/stderr.
int run(int argc, char** argv);

} // namespace mailroom::cli
