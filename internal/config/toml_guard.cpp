#include "config/toml_guard.hpp"

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::config {

Result<void> check_text_outside_strings(std::string_view text, const std::string& path)
{
  enum class State { plain, comment, basic, literal, multi_basic, multi_literal };
  State state = State::plain;
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const std::string_view rest = text.substr(i);
    switch (state) {
    case State::plain:
      if (c == '#') {
        state = State::comment;
      } else if (text::starts_with(rest, "\"\"\"")) {
        state = State::multi_basic;
        i += 2;
        column += 2;
      } else if (text::starts_with(rest, "'''")) {
        state = State::multi_literal;
        i += 2;
        column += 2;
      } else if (c == '"') {
        state = State::basic;
      } else if (c == '\'') {
        state = State::literal;
      } else if ((static_cast<unsigned char>(c) & 0x80U) != 0) {
        return make_error(ErrorCode::usage,
                          fmt::format("{}:{}:{}: unexpected non-ASCII character outside a string or comment",
                                      path, line, column));
      }
      break;
    case State::comment:
      if (c == '\n') {
        state = State::plain;
      }
      break;
    case State::basic:
    case State::multi_basic:
      if (c == '\\' && i + 1 < text.size()) {
        ++i; // an escaped character never ends the string
        ++column;
      } else if (state == State::basic && (c == '"' || c == '\n')) {
        state = State::plain;
      } else if (state == State::multi_basic && text::starts_with(rest, "\"\"\"")) {
        state = State::plain;
        i += 2;
        column += 2;
      }
      break;
    case State::literal:
      if (c == '\'' || c == '\n') {
        state = State::plain;
      }
      break;
    case State::multi_literal:
      if (text::starts_with(rest, "'''")) {
        state = State::plain;
        i += 2;
        column += 2;
      }
      break;
    }
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0U) != 0x80U) {
      ++column;
    }
  }
  return {};
}

} // namespace mailroom::config
