#pragma once

// The body of a send or reply given neither a subject nor a body (contract "Bodies"): piped
// standard input is the body; at a terminal, $VISUAL/$EDITOR composes it, by git's rules.

#include <optional>
#include <string>
#include <string_view>

#include "context.hpp"
#include "base/result.hpp"

namespace mailroom::cli {

// The body when the command line gave neither subject nor body:
// - standard input not a terminal: all of it (at most the body cap); empty (or unreadable) gives
//   nullopt, so the caller's usage error stands, as for an empty body argument;
// - standard input and standard output terminals: the editor's text (`compose_in_editor`);
// - otherwise nullopt (the caller's usage error stands).
// `about` names the message in the template ("to bob", "reply to mr-1").
Result<std::optional<std::string>> implicit_body(Context& ctx, std::string_view about);

// The editor git would choose: $MAILROOM_EDITOR, else $VISUAL (unless TERM=dumb), else $EDITOR,
// else "vi"; nullopt when TERM=dumb and neither is set.
std::optional<std::string> choose_editor(const util::Environment& env);

// git's stripspace with comments: lines starting with '#' removed, trailing blanks cut from each
// line, runs of blank lines made one, leading and trailing blank lines removed; a non-empty
// result ends in one '\n'.
std::string strip_draft(std::string_view text);

// Writes a draft file with a commented template, runs the editor on it attached to the terminal
// and returns the stripped text. The draft's path is kept in ctx.draft: app.cpp removes it when
// the command succeeds and names it in a hint when it fails. Errors: usage when the editor fails
// or the text is empty ("aborting: empty message"), or no editor can be chosen.
Result<std::string> compose_in_editor(Context& ctx, std::string_view about);

} // namespace mailroom::cli
