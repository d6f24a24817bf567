#include "mail/search_query.hpp"

#include <cstddef>
#include <optional>

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::mail {

namespace {

enum class Token { word, phrase, open, close, op_or, op_and, op_not, end };

struct Lexeme {
  Token token = Token::end;
  std::string text;
  bool prefix = false;
};

bool is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// A term needs something a tokenizer keeps: an ASCII letter or digit, or any non-ASCII character.
bool has_searchable(std::string_view text)
{
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      return true;
    }
  }
  return false;
}

Error bad_query(std::string message, std::string hint = {})
{
  return make_error(ErrorCode::usage, "bad search query: " + std::move(message),
                    hint.empty() ? std::string("words, \"a phrase\", prefix*, OR and NOT, e.g. "
                                               "'deploy* NOT staging'")
                                 : std::move(hint));
}

std::string echo_quoted(std::string_view text)
{
  return fmt::format("\"{}\"", text::cap_for_echo(text, 60));
}

class Lexer {
public:
  explicit Lexer(std::string_view text) : m_text(text) {}

  Result<Lexeme> next()
  {
    while (m_pos < m_text.size() && is_space(m_text[m_pos])) {
      ++m_pos;
    }
    if (m_pos >= m_text.size()) {
      return Lexeme{};
    }
    const char c = m_text[m_pos];
    if (c == '(' || c == ')') {
      ++m_pos;
      return Lexeme{c == '(' ? Token::open : Token::close, {}, false};
    }
    if (c == '"') {
      return phrase();
    }
    return word();
  }

private:
  Result<Lexeme> phrase()
  {
    const std::size_t close = m_text.find('"', m_pos + 1);
    if (close == std::string_view::npos) {
      return bad_query("a phrase has no closing \"", "close the phrase: \"build failed\"");
    }
    // Words separated by single spaces, whatever whitespace separated them.
    std::string words;
    bool gap = false;
    for (std::size_t i = m_pos + 1; i < close; ++i) {
      if (is_space(m_text[i])) {
        gap = true;
        continue;
      }
      if (gap && !words.empty()) {
        words += ' ';
      }
      gap = false;
      words += m_text[i];
    }
    m_pos = close + 1;
    if (words.empty()) {
      return bad_query("an empty phrase (\"\") matches nothing");
    }
    if (!has_searchable(words)) {
      return bad_query(fmt::format("the phrase {} has no letter or digit to search for", echo_quoted(words)));
    }
    Lexeme lexeme{Token::phrase, std::move(words), false};
    if (m_pos < m_text.size() && m_text[m_pos] == '*') {
      lexeme.prefix = true;
      ++m_pos;
    }
    return lexeme;
  }

  Result<Lexeme> word()
  {
    const std::size_t start = m_pos;
    while (m_pos < m_text.size() && !is_space(m_text[m_pos]) && m_text[m_pos] != '(' &&
           m_text[m_pos] != ')' && m_text[m_pos] != '"') {
      ++m_pos;
    }
    std::string_view text = m_text.substr(start, m_pos - start);
    Lexeme lexeme{Token::word, {}, false};
    if (text.back() == '*') {
      lexeme.prefix = true;
      text.remove_suffix(1);
    }
    if (text.find('*') != std::string_view::npos) {
      return bad_query(fmt::format("{}: a * may only end a word (prefix*)",
                                   echo_quoted(m_text.substr(start, m_pos - start))));
    }
    if (text.empty()) {
      return bad_query("a * must follow the start of a word (deploy*)");
    }
    if (!lexeme.prefix) {
      if (text == "OR") {
        return Lexeme{Token::op_or, {}, false};
      }
      if (text == "AND") {
        return Lexeme{Token::op_and, {}, false};
      }
      if (text == "NOT") {
        return Lexeme{Token::op_not, {}, false};
      }
    }
    if (!has_searchable(text)) {
      return bad_query(fmt::format("{} has no letter or digit to search for", echo_quoted(text)));
    }
    lexeme.text = std::string(text);
    return lexeme;
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

class Parser {
public:
  explicit Parser(std::string_view text) : m_lexer(text) {}

  Result<SearchNode> parse()
  {
    TRY(advance());
    if (m_current.token == Token::end) {
      return bad_query("it is empty");
    }
    TRY_ASSIGN(SearchNode node, parse_or(0));
    if (m_current.token == Token::close) {
      return bad_query("a ) has no ( to close");
    }
    return node;
  }

private:
  Result<void> advance()
  {
    TRY_ASSIGN(m_current, m_lexer.next());
    return {};
  }

  bool starts_term() const
  {
    return m_current.token == Token::word || m_current.token == Token::phrase ||
           m_current.token == Token::open;
  }

  Result<SearchNode> parse_or(int depth)
  {
    std::vector<SearchNode> alternatives;
    TRY_ASSIGN(SearchNode first, parse_and(depth));
    alternatives.push_back(std::move(first));
    while (m_current.token == Token::op_or) {
      TRY(advance());
      if (!starts_term() && m_current.token != Token::op_not) {
        return bad_query("OR needs a term on each side");
      }
      TRY_ASSIGN(SearchNode next, parse_and(depth));
      alternatives.push_back(std::move(next));
    }
    if (alternatives.size() == 1) {
      return std::move(alternatives.front());
    }
    return SearchNode{SearchNode::Kind::any, {}, false, false, std::move(alternatives)};
  }

  Result<SearchNode> parse_and(int depth)
  {
    std::vector<SearchNode> wanted;
    std::vector<SearchNode> unwanted;
    for (;;) {
      if (m_current.token == Token::op_and) {
        TRY(advance());
        if (wanted.empty() && unwanted.empty()) {
          return bad_query("AND needs a term on each side");
        }
        if (!starts_term() && m_current.token != Token::op_not) {
          return bad_query("AND needs a term on each side");
        }
        continue;
      }
      if (m_current.token == Token::op_not) {
        TRY(advance());
        if (!starts_term()) {
          return bad_query("NOT needs a term after it");
        }
        TRY_ASSIGN(SearchNode excluded, parse_primary(depth));
        unwanted.push_back(std::move(excluded));
        continue;
      }
      if (!starts_term()) {
        break;
      }
      TRY_ASSIGN(SearchNode term, parse_primary(depth));
      wanted.push_back(std::move(term));
    }
    if (wanted.empty() && unwanted.empty()) {
      if (m_current.token == Token::op_or) {
        return bad_query("OR needs a term on each side");
      }
      return bad_query(depth > 0 ? "empty parentheses" : "it is empty");
    }
    if (wanted.empty()) {
      return bad_query("NOT needs something to exclude from",
                       "write what to find first: 'deploy NOT staging'");
    }
    SearchNode found = wanted.size() == 1
                           ? std::move(wanted.front())
                           : SearchNode{SearchNode::Kind::all, {}, false, false, std::move(wanted)};
    if (unwanted.empty()) {
      return found;
    }
    SearchNode excluded = unwanted.size() == 1
                              ? std::move(unwanted.front())
                              : SearchNode{SearchNode::Kind::any, {}, false, false, std::move(unwanted)};
    std::vector<SearchNode> pair;
    pair.push_back(std::move(found));
    pair.push_back(std::move(excluded));
    return SearchNode{SearchNode::Kind::but_not, {}, false, false, std::move(pair)};
  }

  Result<SearchNode> parse_primary(int depth)
  {
    if (m_current.token == Token::open) {
      if (depth + 1 > k_max_search_depth) {
        return bad_query(fmt::format("parentheses nest deeper than {} levels", k_max_search_depth));
      }
      TRY(advance());
      TRY_ASSIGN(SearchNode inner, parse_or(depth + 1));
      if (m_current.token != Token::close) {
        return bad_query("a ( has no ) to close it");
      }
      TRY(advance());
      return inner;
    }
    SearchNode term;
    term.text = std::move(m_current.text);
    term.phrase = m_current.token == Token::phrase;
    term.prefix = m_current.prefix;
    TRY(advance());
    return term;
  }

  Lexer m_lexer;
  Lexeme m_current;
};

} // namespace

Result<SearchNode> parse_search_query(std::string_view text)
{
  if (text.size() > k_max_search_query_bytes) {
    return bad_query(fmt::format("it is longer than {} bytes", k_max_search_query_bytes));
  }
  return Parser(text).parse();
}

std::string to_string(const SearchNode& node)
{
  switch (node.kind) {
  case SearchNode::Kind::term: {
    std::string out = node.phrase ? fmt::format("\"{}\"", node.text) : node.text;
    return node.prefix ? out + "*" : out;
  }
  case SearchNode::Kind::all:
  case SearchNode::Kind::any: {
    std::vector<std::string> parts;
    for (const SearchNode& child : node.children) {
      parts.push_back(to_string(child));
    }
    return "(" + text::join(parts, node.kind == SearchNode::Kind::all ? " AND " : " OR ") + ")";
  }
  case SearchNode::Kind::but_not:
    return "(" + to_string(node.children.at(0)) + " NOT " + to_string(node.children.at(1)) + ")";
  }
  return {};
}

} // namespace mailroom::mail
