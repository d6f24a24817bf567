// libFuzzer target: mail::parse_address and the "did you mean" suggestions on any bytes.

#include <string>
#include <vector>

#include "fuzz/harness.hpp"
#include "mail/address.hpp"

using namespace mailroom;
using testing::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view raw = testing::fuzz::as_text(data, size);
  const auto address = mail::parse_address(raw);
  if (address.ok()) {
    require(address->name.size() <= mail::k_max_address_bytes, "an accepted name is over the address cap");
    require(address->kind != mail::Address::Kind::mailbox || mail::is_valid_mailbox(address->name),
            "an accepted mailbox is not a valid mailbox");
  }
  static const std::vector<std::string> k_known = {"mayor", "bob", "rig/mayor", "rig/polecat-1", "human"};
  const auto suggestions = mail::suggest_mailboxes(raw, k_known);
  require(suggestions.size() <= 3, "more than 3 suggestions");
  return 0;
}
