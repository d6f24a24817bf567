#pragma once

// `{name}` placeholders in argv words and in the tmux line. A placeholder is '{', a name of ASCII
// letters, digits and '_', then '}'; any other brace is text.

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mailroom::wake {

// The name of the first placeholder in `text` that is not in `known`; nullopt when every one is.
std::optional<std::string> unknown_placeholder(std::string_view text,
                                               std::span<const std::string_view> known);

// `text` with each placeholder named in `known` replaced by `value_of(name)`, scanned once from
// left to right: a substituted value is never scanned again, so text from a message that looks
// like a placeholder stays as it is. Placeholders not in `known` are kept as written.
std::string substitute(std::string_view text, std::span<const std::string_view> known,
                       const std::function<std::string(std::string_view)>& value_of);

} // namespace mailroom::wake
