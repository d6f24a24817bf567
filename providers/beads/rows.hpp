#pragma once

// Internal to the bead store: turning rows into messages, and the recipient list encoding.

#include <string>
#include <string_view>
#include <vector>

#include "mail/message.hpp"
#include "base/result.hpp"
#include "sqlite/statement.hpp"

namespace mailroom::providers::beads::detail {

// Recipient lists are stored on the bead as names joined by '\n' (never part of a mailbox).
std::string join_names(const std::vector<mail::Mailbox>& names);
std::vector<mail::Mailbox> split_names(std::string_view joined);

// The message in columns first..first+12 of the current row, in the order of sql.hpp
// (id, sender, to_list, cc_list, subject, body, created_at, thread_id, reply_to, priority, type,
// read, archived).
mail::Message message_from_row(const db::Statement& row, int first = 0);

// Reads every remaining row of `statement` as a message starting at column `first`.
Result<std::vector<mail::Message>> collect_messages(db::Statement& statement, int first = 0);

// Errors with the contract's wording.
Error not_found(std::string_view id);
Error not_recipient(std::string_view mailbox, std::string_view id);

} // namespace mailroom::providers::beads::detail
