#pragma once

// Base64 (RFC 4648, standard alphabet, with padding) and a UTF-8 validity check, for carrying
// bytes that are not text inside JSON (the export format's "body_b64").

#include <optional>
#include <string>
#include <string_view>

namespace mailroom::text {

// `bytes` as base64 with '=' padding.
std::string base64_encode(std::string_view bytes);

// The bytes `encoded` stands for; nullopt when it is not canonical padded base64 (a character
// outside the alphabet, a length that is not a multiple of 4, misplaced padding, or non-zero
// padding bits), so that every accepted text has exactly one meaning.
std::optional<std::string> base64_decode(std::string_view encoded);

// True when `bytes` is valid UTF-8 (strict: no overlong forms, surrogates or code points past
// U+10FFFF).
bool is_valid_utf8(std::string_view bytes);

} // namespace mailroom::text
