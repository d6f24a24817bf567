#pragma once

// Message, thread and trace ids, and how a user may abbreviate a message id.

#include <optional>
#include <string>
#include <string_view>

#include "mail/message.hpp"

namespace mailroom::mail {

// Hex digits of randomness in a new message id: 64 random bits, so ids minted by different stores
// and hosts do not collide.
inline constexpr std::size_t k_message_id_hex = 16;
// The fewest characters of a prefix that may stand for a message id.
inline constexpr std::size_t k_min_id_prefix = 4;

// The longest id the id grammar accepts.
inline constexpr std::size_t k_max_id_bytes = 128;

// The id grammar (docs/export-format.md, "Ids"): 1 to k_max_id_bytes bytes of ASCII letters,
// digits, '.', '_' and '-', the first a letter or a digit. Every id mailroom makes fits it
// ("mr-3f9a0c1d2e4b5a69", "thread-0a1b2c3d4e5f"), and so do Gas City's ("gc-42", "bd-a1b2"). An
// id that fits can never be read as an option (no leading '-'), a path (no '/' or '\\', no
// leading '.'), or split by a shell or a terminal (no space, no control character).
bool is_valid_id(std::string_view id);

// "<prefix>-<16 random hex digits>".
MessageId new_message_id(std::string_view prefix);
// "thread-<12 random hex digits>".
ThreadId new_thread_id();
// 32 random hex digits, never all zero (W3C trace-id).
std::string new_trace_id();
// 16 random hex digits, never all zero (W3C parent-id / span id).
std::string new_span_id();

// What a user typed for a message id, split for lookup: the part after "<prefix>-" when given
// (e.g. "mr-3f9a" → "3f9a"), else the whole text. `exact` is the text as typed.
struct IdPattern {
  std::string exact;
  std::string tail;           // matched against the part after the first '-' of stored ids
  bool may_be_prefix = false; // tail is at least k_min_id_prefix lower-case hex digits
};
IdPattern parse_id_pattern(std::string_view typed);

// A W3C `traceparent` header: 00-<32 hex trace>-<16 hex span>-<2 hex flags>.
struct TraceParent {
  std::string trace_id;
  std::string span_id;
  std::string flags = "01";
};

// Parses a traceparent; nullopt when malformed, version ff, or an all-zero id.
std::optional<TraceParent> parse_traceparent(std::string_view text);
// "00-<trace_id>-<span_id>-01" for `trace`.
std::string format_traceparent(const Trace& trace);

// The trace of a new message: a new root, or a child of `parent` (same trace, parent span).
Trace make_trace(const std::optional<TraceParent>& parent);

} // namespace mailroom::mail
