#pragma once

// The JSON a coding agent writes on a hook's standard input (Claude Code, Codex and Gemini CLI all
// send `hook_event_name`, `session_id` and `cwd`). A hook must never hang or fail its agent, so
// reading is bounded in size and time, and anything missing, late, oversized or malformed is
// simply "no payload".

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mailroom::hooks {

struct PayloadLimits {
  std::size_t max_bytes = std::size_t{1} << 20; // 1 MiB
  std::chrono::milliseconds timeout{200};       // for the whole read, EOF included
};

// The fields mailroom uses. Each is empty when the payload lacks it or it is not a string.
struct Payload {
  std::string hook_event_name; // only a plain name: 1-64 of [A-Za-z0-9_]; else left empty
  std::string session_id;      // diagnostics only
  std::string cwd;             // diagnostics only
};

// Everything readable from `fd` up to EOF, or nullopt when `fd` is a terminal, reading fails, the
// data exceed `limits.max_bytes` or EOF does not arrive within `limits.timeout` (poll(2); a silent
// writer never blocks the hook for longer). Empty input is an empty string. Consumes what it read.
std::optional<std::string> read_payload_text(int fd, const PayloadLimits& limits = {});

// The fields of a payload text. nullopt when `text` is empty or not a JSON object. Cheap by
// design (the hook runs on every prompt): an event-driven parse that keeps only top-level strings
// and stops as soon as the three fields are seen, so a long `prompt` after them is never scanned
// and text after them is not checked.
std::optional<Payload> parse_payload(std::string_view text);

// read_payload_text, then parse_payload.
std::optional<Payload> read_payload(int fd, const PayloadLimits& limits = {});

} // namespace mailroom::hooks
