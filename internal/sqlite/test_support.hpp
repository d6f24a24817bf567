#pragma once

// Helpers shared by the SQLite wrapper's tests (database_test.cpp, database_files_test.cpp).

#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include "sqlite/database.hpp"

namespace mailroom::sqlite::test {

inline Database open_memory()
{
  auto db = Database::open(":memory:");
  REQUIRE(db.ok());
  return std::move(db).value();
}

// The first column of the first row of `sql`, as text.
inline std::string scalar_text(Database& db, std::string_view sql)
{
  auto statement = db.prepare(sql);
  REQUIRE_MESSAGE(statement.ok(), (statement.ok() ? "" : statement.error().message));
  auto row = statement->step();
  REQUIRE(row.ok());
  REQUIRE(*row);
  std::string value = statement->get<std::string>(0);
  statement->reset();
  return value;
}

} // namespace mailroom::sqlite::test
