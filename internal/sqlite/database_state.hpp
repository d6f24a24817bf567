#pragma once

// Internal to sqlite::Database (database.cpp, database_transactions.cpp): what one open
// connection holds.

#include <functional>
#include <map>
#include <string>

#include <sqlite3.h>

#include "sqlite/connection.hpp"
#include "sqlite/database.hpp"

namespace mailroom::sqlite {

struct Database::State {
  detail::Connection connection;
  bool read_only = false;
  bool in_memory = false;
  bool in_write = false; // between begin(write) and commit()/rollback()
  // Keyed by the SQL text, so equal constants in different files share one statement.
  std::map<std::string, Statement, std::less<>> cache;

  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State()
  {
    cache.clear(); // statements must be finalized before the connection closes
    if (connection.handle != nullptr) {
      sqlite3_close_v2(connection.handle);
    }
  }
};

} // namespace mailroom::sqlite
