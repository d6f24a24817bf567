#include "search_snippet.hpp"

#include <algorithm>

#include "text/utf8.hpp"

namespace mailroom::ops {

namespace {

bool is_word_byte(unsigned char c)
{
  // Any byte of a non-ASCII character counts as part of a word, as the stores' tokenizers read
  // letters beyond ASCII.
  return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

char lower(char c)
{
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// The first position in `body` where `word` starts a word, without case for ASCII; npos if none.
std::size_t find_word(std::string_view body, std::string_view word)
{
  if (word.empty() || word.size() > body.size()) {
    return std::string_view::npos;
  }
  for (std::size_t at = 0; at + word.size() <= body.size(); ++at) {
    if (at > 0 && is_word_byte(static_cast<unsigned char>(body[at - 1]))) {
      continue;
    }
    if (std::equal(word.begin(), word.end(), body.begin() + static_cast<std::ptrdiff_t>(at),
                   [](char a, char b) { return lower(a) == lower(b); })) {
      return at;
    }
  }
  return std::string_view::npos;
}

void collect(const mail::SearchNode& node, std::vector<std::string>& out)
{
  if (node.kind == mail::SearchNode::Kind::term) {
    std::size_t start = 0;
    while (start <= node.text.size()) {
      const std::size_t space = std::min(node.text.find(' ', start), node.text.size());
      if (space > start) {
        out.emplace_back(node.text.substr(start, space - start));
      }
      start = space + 1;
    }
    return;
  }
  const std::size_t wanted = node.kind == mail::SearchNode::Kind::but_not
                                 ? std::min<std::size_t>(1, node.children.size())
                                 : node.children.size();
  for (std::size_t i = 0; i < wanted; ++i) {
    collect(node.children[i], out);
  }
}

// The first character boundary at or after `pos`.
std::size_t ceil_boundary(std::string_view text, std::size_t pos)
{
  while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) {
    ++pos;
  }
  return pos;
}

} // namespace

std::vector<std::string> wanted_words(const mail::SearchNode& query)
{
  std::vector<std::string> words;
  collect(query, words);
  return words;
}

std::string search_snippet(std::string_view body, const std::vector<std::string>& words)
{
  std::size_t match = std::string_view::npos;
  for (const std::string& word : words) {
    match = std::min(match, find_word(body, word));
  }
  std::size_t start = 0;
  if (match != std::string_view::npos && match > k_snippet_lead_bytes) {
    start = ceil_boundary(body, match - k_snippet_lead_bytes);
    // Begin at a word when one starts shortly after the cut.
    const std::size_t space = body.find_first_of(" \t\r\n", start);
    if (space != std::string_view::npos && space < match && space - start < 16) {
      start = space + 1;
    }
  }
  const std::string_view rest = body.substr(start);
  const std::size_t length = text::utf8::floor_boundary(rest, std::min(rest.size(), k_snippet_bytes));
  std::string out = start > 0 ? "\u2026" : "";
  bool blank = false;
  for (const char c : rest.substr(0, length)) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      blank = true;
      continue;
    }
    if (blank && !out.empty() && out != "\u2026") {
      out += ' ';
    }
    blank = false;
    out += c;
  }
  if (start + length < body.size()) {
    out += "\u2026";
  }
  return out;
}

} // namespace mailroom::ops
