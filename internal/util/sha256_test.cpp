#include "util/sha256.hpp"

#include <string>

#include <doctest/doctest.h>

TEST_SUITE("mailroom::util::sha256")
{
  using mailroom::util::sha256;
  using mailroom::util::to_hex;

  TEST_CASE("standard test vectors")
  {
    CHECK(to_hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(to_hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(to_hex(sha256("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmn"
                        "opqrlmnopqrsmnopqrstnopqrstu")) ==
          "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    CHECK(to_hex(sha256(std::string(1000000, 'a'))) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }

  TEST_CASE("incremental updates across block boundaries match one update")
  {
    const std::string text(200, 'x');
    for (std::size_t split : {0U, 1U, 55U, 56U, 63U, 64U, 65U, 128U, 199U}) {
      mailroom::util::Sha256 hasher;
      hasher.update(std::string_view(text).substr(0, split));
      hasher.update(std::string_view(text).substr(split));
      CHECK(to_hex(hasher.digest()) == to_hex(sha256(text)));
    }
  }

  TEST_CASE("HMAC-SHA256 matches RFC 4231")
  {
    CHECK(to_hex(mailroom::util::hmac_sha256("Jefe", "what do ya want for nothing?")) ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    // Test case 6: a key longer than the block is hashed first.
    CHECK(to_hex(mailroom::util::hmac_sha256(std::string(131, '\xaa'),
                                             "Test Using Larger Than Block-Size Key - Hash Key First")) ==
          "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  }
}
