#pragma once

// PostgreSQL connection text, recognised and shown in one place (docs/store.md, "Where the store
// is"). A store location is a PostgreSQL connection string when it is a postgresql:// or
// postgres:// URL (one host or several), or a libpq keyword string such as
// `host=db port=5432 dbname=mail user=mail`; anything else is a file path. Connection text is
// never printed with a password in it: every place that shows a location shows redact_conninfo().

#include <string>
#include <string_view>
#include <vector>

namespace mailroom::text {

// True for a postgresql:// or postgres:// URL.
bool is_postgres_url(std::string_view text);

// True for a libpq keyword string: after optional spaces, a libpq connection keyword (host,
// hostaddr, port, dbname, user, password, service, sslmode, ...), optional spaces, then '='. A
// file whose name starts that way is reached with a path that does not (`./host=x`).
bool is_postgres_keywords(std::string_view text);

// The one test of "is this store location a PostgreSQL database": a URL or a keyword string.
bool is_postgres_location(std::string_view text);

// The values of the password keywords (password, sslpassword) of a keyword string, unquoted and
// unescaped as libpq reads them, and also as written; empty for anything else. For scrubbing
// messages that might echo them.
std::vector<std::string> conninfo_passwords(std::string_view text);

// `text` as it may be shown: a URL without the password of its user information and without
// password or sslpassword query parameters (however their names are percent-encoded); a keyword
// string without its password and sslpassword pairs (a malformed value is dropped to the end of
// the text); anything else unchanged.
std::string redact_conninfo(std::string_view text);

} // namespace mailroom::text
