#pragma once

// Display text: the only kind of text the output gate lets out to a terminal or an agent's hook.
// A DisplayText can be made only by sanitising raw bytes (sanitize.hpp), from a string literal
// written in the program, or by formatting other DisplayTexts and numbers, so code that prints
// one cannot have skipped the sanitiser. The policy is docs/output-safety.md.

#include <concepts>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace mailroom::text {

// Where text is shown. JSON is not a sink here: JSON keeps the exact text (json_text in
// sanitize.hpp) and nlohmann escapes it.
enum class Sink {
  terminal,      // multi-line human views (the read/peek body): `\n` and `\t` kept
  terminal_line, // one-line human views (tables, headers, error lines): line breaks become a space
  hook,          // agent-facing hook text: terminal_line plus reminder-tag neutralising, and
                 // every bracket left becomes '‹' or '›' (reminder.hpp, Brackets::replace)
};

// The cap for one echoed value (an id, a path, a config value, a script's stderr) and for
// anything else shown without a cap of its own.
constexpr std::size_t k_default_cap_bytes = 200;
// The cap for a whole error line (prefix, message with its echoed values).
constexpr std::size_t k_error_line_cap_bytes = 512;
// Appended to text that was cut (U+2026).
constexpr std::string_view k_ellipsis = "\xE2\x80\xA6";

// Called only when a Literal holds a control byte; being non-constexpr, it stops the build.
void literal_has_control_byte();

// Text written in the program itself: a string literal with no control byte but `\n` and `\t`,
// checked at compile time.
class Literal {
public:
  template <std::size_t N>
  consteval Literal(const char (&text)[N]) // NOLINT(google-explicit-constructor): literals convert
      : m_text(text, N - 1)
  {
    for (const char c : m_text) {
      const auto byte = static_cast<unsigned char>(c);
      if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7F) {
        literal_has_control_byte();
      }
    }
  }
  constexpr std::string_view view() const { return m_text; }

private:
  std::string_view m_text;
};

class DisplayText;

// What DisplayText::format accepts besides DisplayText: numbers (never char or bool, which could
// carry a raw byte or print as text nobody wrote).
template <typename T>
concept DisplayNumber = (std::integral<T> || std::floating_point<T>)&&!std::same_as<T, char> &&
                        !std::same_as<T, bool> && !std::same_as<T, signed char> &&
                        !std::same_as<T, unsigned char> && !std::same_as<T, char8_t>;

template <typename T>
concept DisplayArg =
    std::same_as<std::remove_cvref_t<T>, DisplayText> || DisplayNumber<std::remove_cvref_t<T>>;

class DisplayText {
public:
  DisplayText() = default;
  // Program text; implicit so `DisplayText t{"ID:"}` and `t += "ID:"` read naturally.
  DisplayText(Literal literal) : m_text(literal.view()) {} // NOLINT(google-explicit-constructor)

  // `pattern` (a literal, checked by fmt at compile time) with `args` substituted: the only way
  // to mix program text with values. Numbers only with plain or width specs, never `{:c}`.
  template <DisplayArg... Args>
  static DisplayText format(fmt::format_string<const Args&...> pattern, const Args&... args)
  {
    return DisplayText(fmt::format(pattern, args...), false);
  }

  const std::string& str() const { return m_text; }
  std::string_view view() const { return m_text; }
  std::size_t size() const { return m_text.size(); }
  bool empty() const { return m_text.empty(); }
  // True when this text, or a part of it, was cut to a limit.
  bool truncated() const { return m_truncated; }

  // Leaving the gate is allowed: a DisplayText reads as a string anywhere one is expected.
  operator std::string_view() const { return m_text; }   // NOLINT(google-explicit-constructor)
  operator const std::string&() const { return m_text; } // NOLINT(google-explicit-constructor)

  DisplayText& operator+=(const DisplayText& other);
  DisplayText& operator+=(Literal literal);
  friend DisplayText operator+(DisplayText left, const DisplayText& right) { return left += right; }
  friend bool operator==(const DisplayText& text, std::string_view other) { return text.m_text == other; }
  friend std::ostream& operator<<(std::ostream& out, const DisplayText& text);

private:
  DisplayText(std::string text, bool truncated) : m_text(std::move(text)), m_truncated(truncated) {}

  // The text/ sources that sanitise make DisplayTexts through this hidden friend, declared for
  // them in text/adopt.hpp; nothing else may declare it.
  friend DisplayText adopt_sanitised(std::string text, bool truncated);

  std::string m_text;
  bool m_truncated = false;
};

// Terminal columns of `text` (display text or plain ASCII): unicode::cell_width per character,
// plus one for U+FE0F after a one-column Emoji character (emoji presentation); an invalid byte
// counts one.
std::size_t display_width(std::string_view text);

// `text` without leading and trailing spaces (U+0020 only).
DisplayText trim(const DisplayText& text);
// `text` without trailing spaces.
DisplayText trim_end(const DisplayText& text);

// `text` cut so that it and `marker` fit in `max_bytes`, with `marker` appended, when it is longer
// than `max_bytes`; otherwise `text` unchanged. Cuts only between characters, never inside an
// escape the sanitiser wrote (`<U+200B>`, `\xff`, `^[`) nor after a kept U+200D, and drops
// trailing spaces before the marker. When `marker` alone does not fit, the cut text has no marker.
// The result is marked truncated() when cut.
DisplayText cut(const DisplayText& text, std::size_t max_bytes, std::string_view marker = k_ellipsis);

// `count` spaces, for padding columns.
DisplayText spaces(std::size_t count);

// `parts` with `separator` between them.
DisplayText join(const std::vector<DisplayText>& parts, Literal separator);

// Terminal styles: the only escape sequences the output gate writes itself (ANSI SGR), chosen
// from this list so no message byte can ever pick one.
enum class Style { bold, alert, warning }; // bold; bold red; yellow

// `text` drawn in `style` and reset after it ("\x1b[1m" text "\x1b[0m").
DisplayText styled(const DisplayText& text, Style style);

} // namespace mailroom::text

template <> struct fmt::formatter<mailroom::text::DisplayText> : fmt::formatter<std::string_view> {
  auto format(const mailroom::text::DisplayText& text, fmt::format_context& ctx) const
  {
    return fmt::formatter<std::string_view>::format(text.view(), ctx);
  }
};
