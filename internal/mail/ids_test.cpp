#include "mail/ids.hpp"

#include <string>
#include <vector>

#include <doctest/doctest.h>

using namespace mailroom;
using namespace mailroom::mail;

TEST_SUITE("mailroom::mail::ids")
{
  TEST_CASE("the id grammar takes every id mailroom and Gas City make")
  {
    for (int i = 0; i < 50; ++i) {
      CHECK(is_valid_id(new_message_id("mr")));
      CHECK(is_valid_id(new_message_id("abcdefghijklmnop")));
      CHECK(is_valid_id(new_thread_id()));
    }
    CHECK(is_valid_id("gc-42"));
    CHECK(is_valid_id("bd-a1b2.3"));
    CHECK(is_valid_id("thread-fallback"));
    CHECK(is_valid_id("X_9"));
    CHECK(is_valid_id(std::string(k_max_id_bytes, 'a')));
  }

  TEST_CASE("the id grammar refuses options, paths, words and controls")
  {
    for (const std::string& bad : std::vector<std::string>{"",
                                                           "--all",
                                                           "-rf",
                                                           "-",
                                                           "../../x",
                                                           "./x",
                                                           ".hidden",
                                                           "_x",
                                                           "a/b",
                                                           "a\\b",
                                                           "a b",
                                                           "a\tb",
                                                           "mr-\x1b[31m",
                                                           "mr-1\n",
                                                           std::string("mr-\0x", 5),
                                                           "mr-\xC3\xA9",
                                                           "a;b",
                                                           "$(id)",
                                                           "a*",
                                                           "a:b",
                                                           "a=b"}) {
      CAPTURE(bad);
      CHECK_FALSE(is_valid_id(bad));
    }
    CHECK_FALSE(is_valid_id(std::string(k_max_id_bytes + 1, 'a')));
  }
}
