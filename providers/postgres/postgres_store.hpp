#pragma once

// The PostgreSQL store: the SQL store (sqlstore::SqlStore) on a PostgreSQL server, for agents on
// several hosts sharing one mailroom (contract "PostgreSQL store", docs/several-hosts.md). This
// folder holds what is PostgreSQL's own: the engine (engine.hpp), the schema and its migrations
// (schema.hpp) and the SQL text (sql*.cpp).

#include <memory>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "mail/clock.hpp"
#include "mail/policy.hpp"
#include "mail/settings.hpp"
#include "sqlstore/store.hpp"

namespace mailroom::providers::postgres {

// Opens the store at the postgresql:// (or postgres://) URL `settings.path`:
//  - connects within the URL's connect_timeout (default 5 s);
//  - Access::create (init) creates the schema, or migrates an older one;
//  - any other access needs the schema: without it, store_error "no store at <url> (run 'mailroom
//    init --db <url>')" with reason "no_store" (the URL without its password); an older schema is
//    migrated (once, whichever host gets there first), a newer one is used when it says this build
//    can, and refused otherwise;
//  - now() comes from the server's clock unless `clock` is not a mail::SystemClock (tests).
// Errors: store_error naming host:port/dbname (never the password) for a server that cannot be
// reached, a refused login, a missing database, a schema this build cannot use; timeout.
Result<std::unique_ptr<sqlstore::SqlStore>> open_postgres_store(const mail::StoreSettings& settings,
                                                                const mail::MailPolicy& policy,
                                                                const mail::Clock& clock);

} // namespace mailroom::providers::postgres
