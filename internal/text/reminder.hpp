#pragma once

// Neutralising the `<system-reminder>` frame that `check --inject` puts around agent-facing text,
// so text inside it can neither close it nor open a new one (docs/output-safety.md).

#include <string>
#include <string_view>

#include "text/display.hpp"

namespace mailroom::text {

// What neutralise_reminder_tags does with the brackets it leaves.
enum class Brackets : unsigned char {
  keep,    // as they are
  replace, // the structural guard: every character that folds to '<' becomes U+2039 '‹', and to
           // '>' U+203A '›', so no tag can be formed whatever the fold misses
};

// `text` with every reminder tag removed, to a fixpoint, in one pass (linear time).
//
// Tags are matched on the fold of each character (unicode::fold_for_tags: compatibility
// decomposition, marks and hidden characters removed, case folding, look-alikes; one character
// may fold to several, "ﬆ" to "st"). A tag is an opening bracket (a character folding to '<':
// `<`, `＜`, `﹤`, `‹`, ...), then optionally '/', then the letters of `system-reminder`, with '-',
// '_', or nothing between the two words. Between any two of these parts there may be ignorable
// characters (those folding to nothing: whitespace, line breaks, controls, invalid bytes,
// combining marks and every hidden class of unicode.hpp). A tag ends at the next closing bracket
// (a character folding to '>') with anything but an opening bracket before it (attributes); with
// no such closing bracket, it ends just before the next opening bracket or at the end of the text.
// Removing a tag can join the text around it into a new one (`</system-</system-reminder>reminder>`);
// that one is removed too.
//
// Guarantee: no opening bracket followed by ignorables, an optional '/', ignorables and the
// folded name is left (contains_reminder_tag is false). Other bytes are kept as they are, but
// for brackets under Brackets::replace, after which no character folding to '<' or '>' is left
// but U+2039 and U+203A. Both forms are idempotent.
std::string neutralise_reminder_tags(std::string_view text, Brackets brackets = Brackets::keep);

// The same for display text, brackets kept (display text holds the gate's own escapes, such as
// `<U+200B>`); the result is still display text.
DisplayText neutralise_reminder_tags(const DisplayText& text);

// True when `text` holds an opening bracket, ignorables, an optional `/`, ignorables and the
// folded name, as described above: what neutralise_reminder_tags never leaves. For tests and fuzz
// targets; quadratic in the worst case.
bool contains_reminder_tag(std::string_view text);

} // namespace mailroom::text
