#pragma once

// Internal to the SQL stores: rows to values, name lists, and the errors with the contract's
// wording.

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "db/statement.hpp"
#include "mail/message.hpp"

namespace mailroom::providers::sqlstore {

// Name lists are stored joined by '\n', which no address contains.
std::string join_names(const std::vector<std::string>& names);
std::vector<std::string> split_names(std::string_view joined);

// The request state in the current row's `request_state` column as it reads when the delivery
// has `expired` (mail::effective_request_state); nullopt when the column is NULL.
std::optional<mail::RequestState> request_state_of(const db::Statement& row, bool expired);

// The message in the current row (the columns named in queries.hpp), as of `now` (expiry).
mail::Message message_from_row(const db::Statement& row, mail::UnixMillis now);

// Every remaining row of `statement` as a message.
Result<std::vector<mail::Message>> collect_messages(db::Statement& statement, mail::UnixMillis now);

// The preview a store keeps beside `body` (mail::preview_length of k_preview_bytes).
std::string_view preview_of(std::string_view body);

// The value bound for "no limit" / "the whole body".
inline constexpr std::int64_t k_unbounded = -1;
// A body_bytes bound: the requested prefix, or one larger than any body.
std::int64_t body_bound(std::optional<std::size_t> body_bytes);

Error not_found(std::string_view id);
Error not_recipient(std::string_view mailbox, std::string_view id);

} // namespace mailroom::providers::sqlstore
