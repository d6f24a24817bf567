#pragma once

// Translating SQL written for SQLite's numbered parameters (?1, ?2 ...) into PostgreSQL's
// ($1, $2 ...), so a statement both engines run is written once, with SQLite's parameters.

#include <string>
#include <string_view>

#include "base/result.hpp"

namespace mailroom::pg {

struct TranslatedSql {
  std::string text;        // the SQL with every ?N outside quotes and comments turned into $N
  int parameter_count = 0; // the highest N used (0: no parameters)
};

// Rewrites ?N (N = 1..65535, any number of digits) as $N wherever it is SQL: not inside a string
// literal ('...', E'...' with backslash escapes, $tag$...$tag$), a quoted identifier ("...") or a
// comment (-- to the end of the line, /* */ nested). A ? without digits is left alone: in
// PostgreSQL it is a jsonb operator, and SQLite's anonymous parameters are not supported.
// Unterminated quotes and comments are copied as they are; the server reports them.
// Errors: store_error for ?0 or a number above 65535 (PostgreSQL's limit).
Result<TranslatedSql> translate_parameters(std::string_view sql);

} // namespace mailroom::pg
