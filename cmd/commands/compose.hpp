#pragma once

// The body of a send or reply given neither a subject nor a body (contract "Bodies"): piped
// standard input is the body; at a terminal, $VISUAL/$EDITOR composes it, by git's rules.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "cli/context.hpp"

namespace mailroom::cli {

// What the command line did not give, taken from standard input or the editor.
struct Draft {
  std::optional<std::string> subject; // the edited text's first line; nullopt: the store derives it
  std::string body;
};

// The message when the command line gave neither subject nor body (a `-s ''` counts as given):
// - standard input not a terminal: all of it (at most the body cap) is the body; empty (or
//   unreadable) gives nullopt, so the caller's usage error stands, as for an empty body argument;
// - standard input and standard output terminals: `before_editor` runs first (the checks the
//   send or reply would fail, so nothing is written in vain), then the editor's text
//   (`compose_in_editor`): without `subject_given`, its first line is the subject and the rest,
//   after the blank lines that follow it, the body (`split_draft`); with it, all of it is the body;
// - otherwise nullopt (the caller's usage error stands).
// `about` names the message in the template ("to bob", "reply to mr-1").
Result<std::optional<Draft>> implicit_body(Context& ctx, std::string_view about, bool subject_given,
                                           const std::function<Result<void>()>& before_editor);

// A stripped draft (`strip_draft`) as subject and body: the first line is the subject, the
// blank lines after it are dropped, the rest is the body (possibly empty).
Draft split_draft(std::string_view stripped);

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
Result<std::string> compose_in_editor(Context& ctx, std::string_view about, bool subject_given);

} // namespace mailroom::cli
