#pragma once

// The script side of Gas City's exec mail protocol (docs/exec-protocol.md) over a mailroom store: what
// `mailroom gc-mail <op> [<arg>]` (also installed as `mailroom-gc-mail`) answers, so that
// `GC_MAIL=exec:mailroom-gc-mail` gives `gc mail` mailroom's store (docs/gas-city.md).
//
// Every operation of docs/exec-protocol.md and mailroom's `all`, `unarchive` and `capabilities`. Answers:
//  - exit 0 with the op's JSON on stdout (a Message, a Message array, or counts; an empty list
//    prints nothing; gc ignores stdout of mark-*, archive and delete);
//  - exit 1 with one line on stderr for every failure, never 2 (to gc, 2 means success):
//    `gc-mail-error:not-found: message "<id>" not found` for an unknown id, `already archived`
//    for an archive or delete of an archived message, the store's message otherwise.
// Who acts: for read, mark-*, archive, unarchive and delete, the caller (mailroom's identity
// chain) when a recipient, else the message's only recipient (`[compat] gc`: gc's message has
// one state); a caller who is neither, with several recipients, is a failure naming them. get
// shows the same recipient's state. The sender of send and reply is the send JSON's `from`;
// `from` and the recipient of a send are registered on first use (gc decided who may write to
// whom). An unknown thread is an empty list, as gc's.

#include <string>
#include <string_view>
#include <vector>

#include "mail/provider.hpp"

namespace mailroom::providers::exec {

struct ScriptCall {
  std::string op;
  std::vector<std::string> args; // gc passes at most one
  std::string input;             // standard input: the send JSON of send and reply
  mail::Mailbox me;              // the caller, from mailroom's identity chain
};

struct ScriptAnswer {
  int status = 0;  // 0, or 1 for every failure
  std::string out; // standard output, no trailing newline
  std::string err; // standard error, one line ending in '\n', or empty
};

// False for the ops answered without a store (ensure-running, capabilities).
bool script_op_needs_store(std::string_view op);

// False for the ops that only read the store (inbox, check, all, count, thread, get): it can be
// opened read-only for them.
bool script_op_writes(std::string_view op);

// Answers `call` (ops without a store need no `store`: pass nullptr).
ScriptAnswer answer_script_call(mail::Provider* store, const ScriptCall& call);

// The exit-1 answer for `error` met outside an op (the store failed to open).
ScriptAnswer script_failure(std::string_view op, const Error& error);

} // namespace mailroom::providers::exec
