#pragma once

// The output gate: raw bytes in, display text out, by destination (docs/output-safety.md).
// Raw bytes are stored; these run on output only.
//
// Terminal and hook text show every hidden character as an escape, never raw:
//   C0 controls and DEL    `^[`, `^G`, `^@`, `^?` (`\n` and `\t` kept in Sink::terminal)
//   C1 controls            `\x9b`
//   invalid UTF-8          `\xff`, one escape per byte
//   bidi controls, other Cf, tag characters, other default-ignorables, U+2028/U+2029,
//   noncharacters          `<U+202E>`, `<U+200B>`, `<U+E0041>`
//   variation selectors    kept directly after a base they can modify (unicode::may_vary), one per
//                          base; `<U+FE0F>` otherwise
//   U+200D (ZWJ)           kept between two pictographic emoji (an emoji ZWJ sequence); else escaped
// One-line sinks (terminal_line, hook) turn each run of `\n`, `\r`, `\t` into one space. The hook
// sink also removes reminder tags and turns every bracket left into '‹' or '›' (reminder.hpp,
// Brackets::replace) before anything else.

#include <cstddef>
#include <string>
#include <string_view>

#include "text/display.hpp"
#include "text/reminder.hpp"

namespace mailroom::text {

// How much text a view has room for: at most `max_bytes` bytes including `marker`, which is
// appended when the text was cut.
struct Limit {
  std::size_t max_bytes = k_default_cap_bytes;
  std::string_view marker = k_ellipsis;
};

// `raw` made safe for `sink`, as described above. Never fails; any bytes are accepted.
DisplayText sanitize(std::string_view raw, Sink sink);

// The same, cut to `limit` (text::cut) when longer. Work stops soon after the limit is passed,
// so a 2 MB value costs little more than a short one (the hook sink still scans all of `raw`
// for tags).
DisplayText sanitize(std::string_view raw, Sink sink, Limit limit);

// `raw`, unsanitised, cut to at most `max_bytes` bytes including a final "…" when longer: for
// echoing user input (ids, paths, config values, script stderr) inside an error message that is
// sanitised when shown. Cuts between characters (an invalid byte counts as one); when "…" alone
// does not fit, the cut text has none.
std::string cap_bytes(std::string_view raw, std::size_t max_bytes = k_default_cap_bytes);

// `raw` for a JSON string: the exact text when it is valid UTF-8, else each byte that is not part
// of a valid character replaced by U+FFFD. Escaping is nlohmann's (and render::dump_json's) job.
std::string json_text(std::string_view raw);

// Sink::terminal: the multi-line read/peek body.
DisplayText sanitize_text(std::string_view raw);

// Sink::terminal_line: table cells, header fields, error lines.
DisplayText sanitize_line(std::string_view raw);

// One-line preview of at most `max_bytes` bytes for `sink` (Sink::terminal is taken as
// terminal_line): sanitised, trimmed of spaces, and when longer cut (text::cut) with `marker`
// appended (the result is then truncated()). Work stops soon after `max_bytes` of visible text,
// so a long value costs little more than a short one (the hook sink still scans `raw` for tags).
DisplayText preview_line(std::string_view raw, Sink sink, std::size_t max_bytes, Literal marker);

// preview_line for Sink::terminal_line with "…" as the marker (the one ellipsis of every preview).
DisplayText truncate_line(std::string_view raw, std::size_t max_bytes);

} // namespace mailroom::text
