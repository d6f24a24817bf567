// The read side's typo check (contract Round 4, "No silent typo"): mail::check_read_mailbox.

#include <doctest/doctest.h>

#include "mail/read_names.hpp"

namespace mailroom::mail {

TEST_CASE("a read naming no known mailbox is a typo with a did-you-mean; known names pass")
{
  Directory directory;
  directory.active = {"alice", "bob"};
  directory.retired = {"carol"};
  MailPolicy policy;
  policy.config_agents = {"dave"};
  for (const char* known : {"alice", "bob", "carol", "dave", "human", "mailroom"}) {
    INFO(known);
    CHECK(check_read_mailbox(known, "--from", directory, policy).ok());
  }
  const auto typo = check_read_mailbox("bbo", "--from", directory, policy);
  REQUIRE_FALSE(typo.ok());
  CHECK(typo.error().code == ErrorCode::unknown_recipient);
  CHECK(typo.error().message == "--from \"bbo\" names no mailbox");
  CHECK(typo.error().hint == "did you mean \"bob\"?");
  const auto argument = check_read_mailbox("xyzzy-unrelated", "mailbox", directory, policy);
  REQUIRE_FALSE(argument.ok());
  CHECK(argument.error().message == "no mailbox \"xyzzy-unrelated\"");
  CHECK(argument.error().hint == "list the mailboxes with: mailroom agents");
  policy.recipients = RecipientPolicy::any;
  CHECK(check_read_mailbox("bbo", "--from", directory, policy).ok());
}

} // namespace mailroom::mail
