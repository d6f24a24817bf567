#pragma once

// The gc exec protocol's wire format (docs/exec-protocol.md, "Wire formats"): the send JSON written to a
// script's stdin and the Message / count JSON it prints. Pure functions, no processes.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "mail/message.hpp"

namespace mailroom::providers::exec {

// `text` as a JSON string literal, quotes included, byte for byte as Go's encoding/json writes
// it: `"` `\` and \b \f \n \r \t escaped by name, other controls as \u00XX, `<` `>` `&` as
// \u003c \u003e \u0026, U+2028/U+2029 as \u2028/\u2029, each invalid UTF-8 byte as \ufffd.
std::string go_json_string(std::string_view text);

// {"from":…,"subject":…,"body":…}: compact, in that key order, no trailing newline.
std::string send_json(std::string_view from, std::string_view subject, std::string_view body);

// `when` as RFC 3339 in UTC with milliseconds, "2026-11-22T13:48:59.123Z" (Go parses it).
std::string wire_time(mail::UnixMillis when);

// One gc wire Message as a script prints it, compact, in gc's key order: id, from, to (one
// string; several recipients joined with ", "), cc when any, subject, body, created_at, read,
// thread_id and reply_to when set, then mailroom's `archived` extension. `read` and `archived`
// are the viewer's delivery (false when the message has no state).
std::string wire_message_json(const mail::Message& message);

// One gc wire Message. Keys are matched like Go (exact first, then case-insensitively); unknown
// keys are ignored, missing or null keys take zero values, a missing priority is normal, `to` may
// be a string or an array. Errors: a plain message (no code) describing what is malformed.
Result<mail::Message> parse_message(std::string_view json);

// parse_message, plus the state the script reported. A key the script left out is unknown, not
// false: gc scripts never send `archived`, and some send no `read`.
struct WireMessage {
  mail::Message message;        // without state
  std::optional<bool> read;     // the recipient's read flag, when reported
  std::optional<bool> archived; // a mailroom extension, when reported
};
Result<WireMessage> parse_wire_message(std::string_view json);

// A Message array; empty text and `null` are no messages. Errors: as parse_message.
Result<std::vector<WireMessage>> parse_messages(std::string_view json);

// {"total":N,"unread":N}; empty text and `null` are zero counts. Errors: as parse_message.
Result<mail::Counts> parse_counts(std::string_view json);

// The ops of a `capabilities` answer {"protocol":1,"ops":[…]}; nullopt for anything else.
std::optional<std::vector<std::string>> parse_capabilities(std::string_view json);

} // namespace mailroom::providers::exec
