#include "mail/address.hpp"

#include <doctest/doctest.h>

using namespace mailroom;
using namespace mailroom::mail;

TEST_SUITE("mailroom::mail::address")
{
  TEST_CASE("mailbox shapes")
  {
    CHECK(is_valid_mailbox("bob"));
    CHECK(is_valid_mailbox("rig/mayor"));
    CHECK(is_valid_mailbox("a.b_c-d/e9"));
    CHECK_FALSE(is_valid_mailbox(""));
    CHECK_FALSE(is_valid_mailbox("bob smith"));
    CHECK_FALSE(is_valid_mailbox("-x"));
    CHECK_FALSE(is_valid_mailbox("rig/"));
    CHECK_FALSE(is_valid_mailbox("/bob"));
    CHECK_FALSE(is_valid_mailbox("a//b"));
    CHECK_FALSE(is_valid_mailbox(".hidden"));
    CHECK_FALSE(is_valid_mailbox("AGENT:gpt"));
    CHECK(is_valid_mailbox(std::string(128, 'a')));
    CHECK_FALSE(is_valid_mailbox(std::string(129, 'a')));
  }

  TEST_CASE("parse_address kinds")
  {
    CHECK(parse_address("bob")->kind == Address::Kind::mailbox);
    CHECK(parse_address("@all")->kind == Address::Kind::all);
    auto group = parse_address("@reviewers");
    REQUIRE(group.ok());
    CHECK(group->kind == Address::Kind::group);
    CHECK(group->name == "reviewers");
  }

  TEST_CASE("foreign forms are rejected with a hint, never corrected")
  {
    auto star = parse_address("AGENT:*");
    REQUIRE_FALSE(star.ok());
    CHECK(star.error().code == ErrorCode::invalid_recipient);
    CHECK(star.error().message == "invalid recipient \"AGENT:*\": expected name, rig/name, @all or @group");
    CHECK(star.error().hint == "did you mean @all?");

    auto gpt = parse_address("AGENT:gpt");
    REQUIRE_FALSE(gpt.ok());
    CHECK(gpt.error().hint == "did you mean gpt?");
    CHECK(gpt.error().suggestions == std::vector<std::string>{"gpt"});
    CHECK(gpt.error().input == "AGENT:gpt");

    CHECK(parse_address("bob smith").error().code == ErrorCode::invalid_recipient);
    CHECK(parse_address("").error().code == ErrorCode::invalid_recipient);
    CHECK(parse_address("@a/b").error().code == ErrorCode::invalid_recipient);
  }

  TEST_CASE("suggestions come from the registry")
  {
    const std::vector<std::string> known = {"mayor", "polecat", "rig/mayor", "coder", "committer"};
    const auto s = suggest_mailboxes("mayr", known);
    REQUIRE_FALSE(s.empty());
    CHECK(s.front() == "mayor");
    CHECK(s.size() <= 3);
    CHECK(suggest_mailboxes("laser/mayor", known).front() == "mayor");
    CHECK(suggest_mailboxes("zzzzzzzz", known).empty());
  }
}
