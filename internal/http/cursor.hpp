#pragma once

// The opaque `next_cursor` of GET /api/v1/mailboxes/{name}/messages: where the next page of one
// box of one mailbox starts. A client passes it back unchanged; its form is not part of the API.

#include <cstddef>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace mailroom::http {

// `box` (in, out, all) and the number of messages already shown.
std::string encode_cursor(std::string_view box, std::size_t offset);
// The offset `cursor` holds. Errors: usage (not a cursor of this box).
Result<std::size_t> decode_cursor(std::string_view cursor, std::string_view box);

} // namespace mailroom::http
