#include "mail/stores.hpp"

#include <string>

#include <doctest/doctest.h>

using namespace mailroom;
using namespace mailroom::mail;

TEST_SUITE("mailroom::mail::stores")
{
  TEST_CASE("a connection string's syntax chooses PostgreSQL; a path does not")
  {
    CHECK(location_scheme("postgresql://u@h/db") == "postgresql");
    CHECK(location_scheme("postgres://h/db") == "postgresql");
    CHECK(location_scheme("host=h dbname=mail") == "postgresql");
    CHECK_FALSE(location_scheme("/home/a/.beads/mail.db").has_value());
    CHECK_FALSE(location_scheme("mail.db").has_value());
    CHECK(is_path_location("~/mail.db"));
    CHECK_FALSE(is_path_location("postgresql://h/db"));
  }

  TEST_CASE("mail.provider takes \"beads\" and \"exec:<command>\", nothing else")
  {
    CHECK(is_provider_value("beads"));
    CHECK(is_provider_value("exec:gc-mail"));
    CHECK_FALSE(is_provider_value("exec:"));
    CHECK_FALSE(is_provider_value("beads2"));
    CHECK_FALSE(is_provider_value("postgresql"));
    CHECK_FALSE(is_provider_value(""));
    CHECK(provider_values_text() == "\"beads\" or \"exec:<command>\"");
  }

  TEST_CASE("the location's scheme wins over the provider; else the provider chooses")
  {
    auto pg = choose_store("exec:x", "postgresql://h/db", "the default");
    REQUIRE(pg.ok());
    CHECK(pg->scheme == "postgresql");
    CHECK(pg->exec_command.empty());
    auto beads = choose_store("beads", "/tmp/m.db", "the default");
    REQUIRE(beads.ok());
    CHECK(beads->scheme == "beads");
    auto exec = choose_store("exec:my script --flag", "/tmp/m.db", "the default");
    REQUIRE(exec.ok());
    CHECK(exec->scheme == "exec");
    CHECK(exec->exec_command == "my script --flag");
    auto bad = choose_store("sqlite", "/tmp/m.db", "/p/mailroom.toml");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::usage);
    CHECK(bad.error().message ==
          "provider \"sqlite\" must be \"beads\" or \"exec:<command>\" (from /p/mailroom.toml)");
  }
}
