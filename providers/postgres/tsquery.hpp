#pragma once

// The search tree (mail/search_query.hpp) as PostgreSQL tsquery text for to_tsquery('simple', ·).

#include <string>

#include "mail/search_query.hpp"

namespace mailroom::providers::postgres {

// Every term is a quoted lexeme ('' and \ escaped), so no byte of the user's query is read as
// tsquery syntax; to_tsquery then splits a term as the search column's parser does (a phrase's
// words become 'a' <-> 'b'). A prefix term is term:* (in a phrase every word becomes a prefix,
// where the bead store's FTS5 makes only the last one). all is &, any is |, but_not is A & !B.
std::string render_tsquery(const mail::SearchNode& query);

} // namespace mailroom::providers::postgres
