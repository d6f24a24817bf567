#include "pg/parameters.hpp"

#include <algorithm>
#include <cstddef>

#include <fmt/format.h>

namespace mailroom::pg {

namespace {

constexpr long k_max_parameter = 65535;

bool is_digit(char c)
{
  return c >= '0' && c <= '9';
}

bool is_identifier_char(char c)
{
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// The end (one past the closing quote) of the quoted run starting at `begin`, which holds `quote`.
// A doubled quote stands for itself; with `backslash_escapes`, so does a backslash and the next
// character. Returns sql.size() when unterminated.
std::size_t skip_quoted(std::string_view sql, std::size_t begin, char quote, bool backslash_escapes)
{
  std::size_t i = begin + 1;
  while (i < sql.size()) {
    const char c = sql[i];
    if (backslash_escapes && c == '\\') {
      i += 2;
    } else if (c == quote) {
      if (i + 1 < sql.size() && sql[i + 1] == quote) {
        i += 2;
      } else {
        return i + 1;
      }
    } else {
      ++i;
    }
  }
  return sql.size();
}

// The end of a nested /* */ comment starting at `begin`.
std::size_t skip_block_comment(std::string_view sql, std::size_t begin)
{
  int depth = 0;
  std::size_t i = begin;
  while (i + 1 < sql.size()) {
    if (sql[i] == '/' && sql[i + 1] == '*') {
      ++depth;
      i += 2;
    } else if (sql[i] == '*' && sql[i + 1] == '/') {
      --depth;
      i += 2;
      if (depth == 0) {
        return i;
      }
    } else {
      ++i;
    }
  }
  return sql.size();
}

// When a dollar quote ($$ or $tag$) starts at `begin`, the end of the quoted run; else 0.
std::size_t skip_dollar_quoted(std::string_view sql, std::size_t begin)
{
  if (begin + 1 < sql.size() && is_digit(sql[begin + 1])) {
    return 0; // $1: a parameter, not a quote
  }
  std::size_t i = begin + 1;
  while (i < sql.size() && is_identifier_char(sql[i])) {
    ++i;
  }
  if (i >= sql.size() || sql[i] != '$') {
    return 0; // a stray $
  }
  const std::string_view tag = sql.substr(begin, i - begin + 1);
  const std::size_t close = sql.find(tag, i + 1);
  return close == std::string_view::npos ? sql.size() : close + tag.size();
}

} // namespace

Result<TranslatedSql> translate_parameters(std::string_view sql)
{
  TranslatedSql out;
  out.text.reserve(sql.size());
  std::size_t i = 0;
  while (i < sql.size()) {
    const char c = sql[i];
    std::size_t end = i;
    if (c == '\'') {
      // E'...' (also e'...') takes backslash escapes when the E is a word of its own.
      const bool escaped =
          i > 0 && (sql[i - 1] == 'E' || sql[i - 1] == 'e') && (i == 1 || !is_identifier_char(sql[i - 2]));
      end = skip_quoted(sql, i, '\'', escaped);
    } else if (c == '"') {
      end = skip_quoted(sql, i, '"', false);
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      end = std::min(sql.find('\n', i), sql.size());
    } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
      end = skip_block_comment(sql, i);
    } else if (c == '$' && (i == 0 || !is_identifier_char(sql[i - 1]))) {
      end = skip_dollar_quoted(sql, i);
      end = end == 0 ? i : end;
    } else if (c == '?' && i + 1 < sql.size() && is_digit(sql[i + 1])) {
      std::size_t digits_end = i + 1;
      long number = 0;
      while (digits_end < sql.size() && is_digit(sql[digits_end])) {
        number = std::min(number * 10 + (sql[digits_end] - '0'), k_max_parameter + 1);
        ++digits_end;
      }
      if (number < 1 || number > k_max_parameter) {
        return make_error(ErrorCode::store_error,
                          fmt::format("bad parameter \"{}\" in sql: numbers run from ?1 to ?{}",
                                      sql.substr(i, digits_end - i), k_max_parameter));
      }
      out.text += '$';
      out.text.append(sql.substr(i + 1, digits_end - i - 1));
      out.parameter_count = std::max(out.parameter_count, static_cast<int>(number));
      i = digits_end;
      continue;
    }
    if (end > i) {
      out.text.append(sql.substr(i, end - i));
      i = end;
    } else {
      out.text += c;
      ++i;
    }
  }
  return out;
}

} // namespace mailroom::pg
