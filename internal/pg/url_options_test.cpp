#include "pg/url_options.hpp"

#include <doctest/doctest.h>

using mailroom::pg::take_url_options;

TEST_CASE("TakeUrlOptions_RemovesPoolerAndKeepsTheRestInOrder")
{
  auto o = take_url_options(
      "postgresql://a:1,b:2/mail?sslmode=disable&pooler=transaction&target_session_attrs=read-write");
  CHECK(o.transaction_pooler);
  CHECK(o.url == "postgresql://a:1,b:2/mail?sslmode=disable&target_session_attrs=read-write");
  o = take_url_options("postgres://h/mail?pooler=transaction");
  CHECK(o.transaction_pooler);
  CHECK(o.url == "postgres://h/mail");
  o = take_url_options("postgres://h/mail?pooler=none&x=1");
  CHECK_FALSE(o.transaction_pooler);
  CHECK(o.url == "postgres://h/mail?x=1");
}

TEST_CASE("TakeUrlOptions_LeavesOthersAlone")
{
  CHECK(take_url_options("host=a pooler=transaction").url == "host=a pooler=transaction");
  CHECK(take_url_options("postgresql://h/mail").url == "postgresql://h/mail");
  auto o = take_url_options("postgresql://h/mail?pooler=bogus");
  CHECK_FALSE(o.transaction_pooler);
  CHECK(o.url == "postgresql://h/mail?pooler=bogus");
}
