#include "text/base64.hpp"

#include <string>

#include <doctest/doctest.h>

using namespace mailroom::text;

TEST_SUITE("mailroom::text::base64")
{
  TEST_CASE("RFC 4648 test vectors")
  {
    const std::pair<std::string, std::string> vectors[] = {
        {"", ""},
        {"f", "Zg=="},
        {"fo", "Zm8="},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="},
        {"fooba", "Zm9vYmE="},
        {"foobar", "Zm9vYmFy"},
    };
    for (const auto& [plain, encoded] : vectors) {
      CHECK(base64_encode(plain) == encoded);
      CHECK(base64_decode(encoded) == plain);
    }
  }

  TEST_CASE("every byte round-trips")
  {
    std::string all;
    for (int i = 0; i < 256; ++i) {
      all += static_cast<char>(i);
    }
    for (std::size_t n = 0; n <= all.size(); n += 37) {
      const std::string part = all.substr(0, n);
      CHECK(base64_decode(base64_encode(part)) == part);
    }
  }

  TEST_CASE("only canonical text is accepted")
  {
    CHECK_FALSE(base64_decode("Zg=").has_value());      // length
    CHECK_FALSE(base64_decode("Zg==Zg==").has_value()); // padding in the middle
    CHECK_FALSE(base64_decode("Z===").has_value());     // too much padding
    CHECK_FALSE(base64_decode("Zh==").has_value());     // non-zero padding bits
    CHECK_FALSE(base64_decode("Zm9v\n").has_value());   // whitespace
    CHECK_FALSE(base64_decode("Zm-_").has_value());     // URL alphabet
    CHECK_FALSE(base64_decode("Z=g=").has_value());
  }

  TEST_CASE("UTF-8 validity")
  {
    CHECK(is_valid_utf8(""));
    CHECK(is_valid_utf8("plain ascii"));
    CHECK(is_valid_utf8("caf\xC3\xA9 \xF0\x9F\x98\x80"));
    CHECK_FALSE(is_valid_utf8("\xFF"));
    CHECK_FALSE(is_valid_utf8("\xC0\xAF"));     // overlong
    CHECK_FALSE(is_valid_utf8("\xED\xA0\x80")); // surrogate
    CHECK_FALSE(is_valid_utf8("abc\xE2\x82"));  // cut short
  }
}
