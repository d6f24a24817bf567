#pragma once

// Neutralising the `<system-reminder>` frame that `check --inject` puts around agent-facing text,
// so text inside it can neither close it nor open a new one (docs/output-safety.md).

#include <string>
#include <string_view>

#include "text/display.hpp"

namespace mailroom::text {

// `text` with every reminder tag removed, to a fixpoint, in one pass (linear time).
//
// A tag is an opening bracket (`<`, `＜`, `﹤` and other look-alikes), then optionally `/`, then
// the letters of `system-reminder` in any case, folded from full-width, mathematical, circled and
// modifier forms, with `-`, `_` or nothing between the two words. Between any two of these parts
// there may be ignorable characters: whitespace, line breaks, controls, invalid bytes, combining
// marks and every hidden class of unicode.hpp (zero-width, bidi, tags, variation selectors, ...).
// A tag ends at the next closing bracket (`>`, `＞`, `﹥`, ...) with anything but an opening
// bracket before it (attributes); with no such closing bracket, it ends just before the next
// opening bracket or at the end of the text. Removing a tag can join the text around it into a
// new one (`</system-</system-reminder>reminder>`); that one is removed too.
//
// Guarantee: no opening bracket followed by ignorables, an optional `/`, ignorables and the
// folded name is left (contains_reminder_tag is false). Other bytes are kept as they are.
std::string neutralise_reminder_tags(std::string_view text);

// The same for display text; the result is still display text.
DisplayText neutralise_reminder_tags(const DisplayText& text);

// True when `text` holds an opening bracket, ignorables, an optional `/`, ignorables and the
// folded name, as described above: what neutralise_reminder_tags never leaves. For tests and fuzz
// targets; quadratic in the worst case.
bool contains_reminder_tag(std::string_view text);

} // namespace mailroom::text
