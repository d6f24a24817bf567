#pragma once

// Recipient addresses as the contract defines them, parsed before anything is stored.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace mailroom::mail {

inline constexpr std::size_t k_max_address_bytes = 128;

// The valid shapes, as named in errors and in the JSON error's "valid_shapes".
std::vector<std::string> valid_address_shapes();

// True when `text` is a mailbox: segments `[A-Za-z0-9][A-Za-z0-9._-]*` joined by `/`, at most
// 128 bytes in all.
bool is_valid_mailbox(std::string_view text);

struct Address {
  enum class Kind { mailbox, all, group };
  Kind kind = Kind::mailbox;
  std::string name; // the mailbox, or the group name without '@'; empty for all
};

// Parses one recipient: `name`, `rig/name`, `@all`, `@group`. Anything else is invalid_recipient
// naming the input and the valid shapes, with a hint for known foreign forms
// (`AGENT:*` → `@all`, `AGENT:gpt` → `gpt`). Never corrects anything.
Result<Address> parse_address(std::string_view text);

// Up to `max` names from `known` close to `input` (edit distance, and rig-local matches of the
// last segment), best first. Empty when nothing is close.
std::vector<std::string> suggest_mailboxes(std::string_view input, const std::vector<std::string>& known,
                                           std::size_t max = 3);

} // namespace mailroom::mail
