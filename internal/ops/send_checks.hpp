#pragma once

// The checks that keep a send or reply from reaching the wrong place (contract "What reaches an
// agent": no silent misroutes, compose checks first). The check on standard input (-s with piped
// data) is the CLI's: cmd/commands/misroute.cpp.

#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/provider.hpp"
#include "session.hpp"

namespace mailroom::ops {

// `send A B BODY`: B becomes the subject. When B names a configured group (`@ops` or `ops`),
// `@all`, or a mailbox of the registry or of [agents] names, the sender meant a second
// recipient. The registry is asked only when the provider has one. Errors: usage with the --to
// hint; the provider's errors.
Result<void> refuse_address_subject(Session& session, mail::Provider& provider, const std::string& recipient,
                                    const std::string& subject);

// What a send would be refused for, asked before the editor opens: the identity (opening the
// provider runs the guard), then the recipients against the registry (or shapes only without
// one). Errors: as resolve_audience and the identity guard.
Result<void> check_recipients(Session& session, const std::vector<std::string>& to,
                              const std::vector<std::string>& cc);

// What a reply would be refused for, asked before the editor opens: the identity, the id, and
// that the caller may reply to that message (reply_audience). Errors: not_found, ambiguous_id,
// not_recipient, usage (reply --all over the confirmation limit).
Result<void> check_reply(Session& session, const std::string& id, bool reply_all, bool confirmed);

} // namespace mailroom::ops
