#include <doctest/doctest.h>

#include "pg/parameters.hpp"
#include "pg/session.hpp"

namespace mailroom::pg {

namespace {

std::string translated(std::string_view sql)
{
  auto result = translate_parameters(sql);
  REQUIRE(result.ok());
  return result->text;
}

} // namespace

TEST_SUITE("mailroom::pg::translate_parameters")
{
  TEST_CASE("numbered parameters become $N and the highest number is the count")
  {
    auto result = translate_parameters("SELECT * FROM t WHERE a = ?1 AND b = ?2 OR c = ?1");
    REQUIRE(result.ok());
    CHECK(result->text == "SELECT * FROM t WHERE a = $1 AND b = $2 OR c = $1");
    CHECK(result->parameter_count == 2);
  }

  TEST_CASE("?10 is parameter ten, not ?1 followed by 0")
  {
    auto result = translate_parameters("VALUES (?1, ?10, ?2)");
    REQUIRE(result.ok());
    CHECK(result->text == "VALUES ($1, $10, $2)");
    CHECK(result->parameter_count == 10);
  }

  TEST_CASE("string literals, quoted identifiers and comments are copied as they are")
  {
    CHECK(translated("SELECT '?1', ?1") == "SELECT '?1', $1");
    CHECK(translated("SELECT 'it''s ?1', ?2") == "SELECT 'it''s ?1', $2");
    CHECK(translated("SELECT \"col?1\" FROM t WHERE x = ?1") == "SELECT \"col?1\" FROM t WHERE x = $1");
    CHECK(translated("SELECT \"a\"\"?1\" , ?1") == "SELECT \"a\"\"?1\" , $1");
    CHECK(translated("SELECT E'\\'?1', ?1") == "SELECT E'\\'?1', $1");
    CHECK(translated("SELECT 1 -- ?1\n, ?2") == "SELECT 1 -- ?1\n, $2");
    CHECK(translated("SELECT /* ?1 /* ?2 */ ?3 */ ?4") == "SELECT /* ?1 /* ?2 */ ?3 */ $4");
    CHECK(translated("SELECT $$ ?1 $$, $tag$ '?2 $$ $tag$, ?3") == "SELECT $$ ?1 $$, $tag$ '?2 $$ $tag$, $3");
  }

  TEST_CASE("a backslash ends nothing in a standard string")
  {
    CHECK(translated("SELECT 'a\\', ?1") == "SELECT 'a\\', $1");
  }

  TEST_CASE("a ? without digits and an existing $N are left alone")
  {
    auto result = translate_parameters("SELECT doc ? 'key', doc ?| array['a'], $1");
    REQUIRE(result.ok());
    CHECK(result->text == "SELECT doc ? 'key', doc ?| array['a'], $1");
    CHECK(result->parameter_count == 0);
  }

  TEST_CASE("unterminated quotes are copied to the end")
  {
    CHECK(translated("SELECT 'abc ?1") == "SELECT 'abc ?1");
    CHECK(translated("SELECT $x$ ?1") == "SELECT $x$ ?1");
  }

  TEST_CASE("?0 and numbers past 65535 are refused")
  {
    auto zero = translate_parameters("SELECT ?0");
    REQUIRE_FALSE(zero.ok());
    CHECK(zero.error().code == ErrorCode::store_error);
    CHECK(zero.error().message == "bad parameter \"?0\" in sql: numbers run from ?1 to ?65535");
    CHECK_FALSE(translate_parameters("SELECT ?65536").ok());
    CHECK_FALSE(translate_parameters("SELECT ?99999999999999999999999").ok());
    CHECK(translate_parameters("SELECT ?65535").ok());
  }
}

TEST_SUITE("mailroom::pg::detail messages")
{
  TEST_CASE("url_secrets finds the password as written and decoded")
  {
    CHECK(detail::url_secrets("postgresql://bob:p%40ss@host/db") ==
          std::vector<std::string>{"p%40ss", "p@ss"});
    CHECK(detail::url_secrets("postgres://host/db?user=bob&password=hunter2") ==
          std::vector<std::string>{"hunter2"});
    CHECK(detail::url_secrets("postgresql://bob@host/db").empty());
    CHECK(detail::url_secrets("postgresql:///db?host=/tmp/x").empty());
    // An @ after the first / is not user information.
    CHECK(detail::url_secrets("postgresql://host/db?application_name=a:b@c").empty());
  }

  TEST_CASE("clean_message makes one line, drops prefixes and keeps the hint")
  {
    const auto refused = detail::clean_message(
        {}, "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the "
            "server running on that host and accepting TCP/IP connections?\nconnection to server "
            "at \"::1\", port 1 failed: Connection refused\n");
    CHECK(refused.reason == "connection refused");
    CHECK(refused.hint == "is the server running on that host and accepting TCP/IP connections?");
    const auto fatal = detail::clean_message({}, "FATAL:  database \"x\" does not exist\n");
    CHECK(fatal.reason == "database \"x\" does not exist");
    CHECK(fatal.hint.empty());
    CHECK(detail::clean_message({}, "").reason == "unknown error");
    CHECK(detail::clean_message({}, "SSL error: bad").reason == "SSL error: bad");
  }

  TEST_CASE("a server that is not there, starting or stopping is unreachable; a refusal is not")
  {
    for (const char* text :
         {"connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server "
          "running?",
          "connection to server on socket \"/tmp/x/.s.PGSQL.5432\" failed: No such file or directory\n",
          "connection to server on socket \"/tmp/x/.s.PGSQL.5432\" failed: FATAL:  the database system is "
          "starting up\n",
          "FATAL:  the database system is shutting down\n"}) {
      CAPTURE(text);
      CHECK(detail::server_unreachable(detail::clean_message({}, text).reason));
    }
    for (const char* text :
         {"FATAL:  database \"x\" does not exist\n", "FATAL:  role \"nobody\" does not exist\n",
          "FATAL:  password authentication failed for user \"bob\"\n"}) {
      CAPTURE(text);
      CHECK_FALSE(detail::server_unreachable(detail::clean_message({}, text).reason));
    }
  }

  TEST_CASE("clean_message replaces every secret")
  {
    const auto message = detail::clean_message({"p%40ss", "p@ss"}, "invalid token \"p%40ss\" and p@ss");
    CHECK(message.reason == "invalid token \"***\" and ***");
    // A short secret is replaced only where it stands apart from letters and digits.
    const auto short_secret = detail::clean_message({"p"}, "accepting \"p\" at bob:p@host");
    CHECK(short_secret.reason == "accepting \"***\" at bob:***@host");
  }
}

} // namespace mailroom::pg
