#include "errors.hpp"

#include <vector>

#include <fmt/format.h>

#include "schema.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

Error in_gc_words(bool compat_gc, Error error)
{
  if (compat_gc && error.code == ErrorCode::not_found && error.message.starts_with("message \"") &&
      error.message.find("bead not found") == std::string::npos) {
    error.message += " (bead not found)";
  }
  return error;
}

Error usage_error(std::string message, std::string hint)
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

std::string error_to_text(std::string_view command, const Error& error)
{
  const std::string prefix = command.empty() ? std::string("mailroom") : fmt::format("mailroom {}", command);
  // Messages quote user input, which may hold terminal escapes and be of any length: each line
  // goes through the gate, capped (text::k_error_line_cap_bytes).
  const text::Limit line{text::k_error_line_cap_bytes - prefix.size() - 2};
  std::string text =
      fmt::format("{}: {}\n", prefix, text::sanitize(error.message, text::Sink::terminal_line, line));
  if (error.code == ErrorCode::ambiguous_id && !error.suggestions.empty()) {
    // The candidates, so the next try can be typed (at most 5 named).
    constexpr std::size_t k_shown = 5;
    std::string shown;
    for (std::size_t i = 0; i < error.suggestions.size() && i < k_shown; ++i) {
      shown += fmt::format("{}{}", i > 0 ? ", " : "",
                           text::sanitize(error.suggestions[i], text::Sink::terminal_line, line));
    }
    const std::size_t more = error.suggestions.size() > k_shown ? error.suggestions.size() - k_shown : 0;
    text += fmt::format("candidates: {}{}\n", shown, more > 0 ? fmt::format(" and {} more", more) : "");
  }
  if (!error.hint.empty()) {
    text += fmt::format("hint: {}\n", text::sanitize(error.hint, text::Sink::terminal_line, line));
  } else if (!error.suggestions.empty()) {
    std::string quoted;
    for (std::size_t i = 0; i < error.suggestions.size(); ++i) {
      quoted += fmt::format("{}\"{}\"", i > 0 ? " or " : "",
                            text::sanitize(error.suggestions[i], text::Sink::terminal_line));
    }
    text += fmt::format("hint: did you mean {}?\n", quoted);
  }
  return text;
}

nlohmann::json error_output_schema()
{
  using namespace schema;
  nlohmann::json error = object({{"code", string()}, {"message", string()}, {"exit_code", integer()}},
                                {{"hint", string()},
                                 {"input", string()},
                                 {"valid_shapes", array_of(string())},
                                 {"suggestions", array_of(string())},
                                 {"candidates", array_of(string())},
                                 {"reason", string()}});
  return document({{"ok", boolean()}, {"error", std::move(error)}});
}

} // namespace mailroom::ops
