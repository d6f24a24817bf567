#pragma once

// Making message bytes safe to print. Raw bytes are stored; these run on output only
// (reference/reliability.md §2.2). Invalid UTF-8 bytes become visible `\xNN` escapes.

#include <cstddef>
#include <string>
#include <string_view>

namespace mailroom::text {

// For multi-line human views (the read/peek body): keeps `\n` and `\t`; C0 controls, DEL, ESC and
// C1 (U+0080–U+009F) become visible escapes (`^[`, `^A`, `^?`, `\x9b`); bidi overrides and isolates
// (U+202A–U+202E, U+2066–U+2069) become `<U+202E>`; invalid UTF-8 bytes become `\xNN`.
std::string sanitize_text(std::string_view raw);

// For one-line views (tables, headers): as sanitize_text, and every run of `\n`, `\r`, `\t` becomes
// one space.
std::string sanitize_line(std::string_view raw);

// One-line preview of at most `max_bytes` bytes: sanitize_line, trimmed, and when longer cut at a
// character boundary with "..." appended (the result including "..." fits in max_bytes).
std::string truncate_line(std::string_view raw, std::size_t max_bytes);

// Removes `<system-reminder>` and `</system-reminder>` in any letter case, with spaces allowed inside
// the tag (`</ SYSTEM-reminder >`), repeated until nothing changes.
std::string neutralise_reminder_tags(std::string_view text);

// Display width in terminal columns of already-sanitised text (one per code point; East Asian wide
// characters count two).
std::size_t display_width(std::string_view text);

} // namespace mailroom::text
