#include "mail/message.hpp"

#include <doctest/doctest.h>

using namespace mailroom::mail;

TEST_SUITE("mailroom::mail::message")
{
  TEST_CASE("priorities parse by name and number")
  {
    CHECK(parse_priority("urgent") == Priority::urgent);
    CHECK(parse_priority("4") == Priority::backlog);
    CHECK_FALSE(parse_priority("5").has_value());
    CHECK_FALSE(parse_priority("URGENT").has_value());
    CHECK(to_string(Priority::high) == "high");
  }

  TEST_CASE("reply subject adds Re: once")
  {
    CHECK(reply_subject("lunch") == "Re: lunch");
    CHECK(reply_subject("Re: lunch") == "Re: lunch");
    CHECK(reply_subject("RE: lunch") == "RE: lunch");
    CHECK(reply_subject("") == "Re: ");
  }

  TEST_CASE("derived subject is the first line cut to 80 bytes")
  {
    CHECK(derive_subject("hello\nworld") == "hello");
    const std::string long_line(100, 'a');
    CHECK(derive_subject(long_line) == std::string(77, 'a') + "...");
    CHECK(derive_subject(std::string(80, 'b')) == std::string(80, 'b'));
    // 76 ASCII bytes then a 3-byte character: the cut must not split it.
    const std::string text = std::string(76, 'x') + "\xE2\x82\xAC" + std::string(10, 'y');
    CHECK(derive_subject(text) == std::string(76, 'x') + "...");
  }
}
