#pragma once

// The snippet of a search result: the part of a found message's body that shows why it matched.
// The stores decide what matches (each in its own syntax, mail/search_query.hpp); this only finds
// where, for every surface alike (the CLI's --json, the MCP tool, the dashboard).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "mail/search_query.hpp"

namespace mailroom::ops {

// The most bytes a snippet holds (before the "…" that mark a cut) and how far before the match it
// starts.
inline constexpr std::size_t k_snippet_bytes = 160;
inline constexpr std::size_t k_snippet_lead_bytes = 48;

// The words the query asks for: every word of every term, except those under NOT's right side.
std::vector<std::string> wanted_words(const mail::SearchNode& query);

// Up to k_snippet_bytes of `body` around the earliest place where one of `words` starts a word
// (ASCII letters compared without case), else the body's start (the store matched a stemmed or
// folded form, or the subject or sender). Runs of spaces, tabs and line breaks become one space;
// "…" marks each end that was cut; cuts fall on UTF-8 character boundaries. Raw text: the output
// gate sanitises it like any other message text.
std::string search_snippet(std::string_view body, const std::vector<std::string>& words);

} // namespace mailroom::ops
