// mailroom's contract cases about previews (contract "Round 3": message objects carry body_bytes
// and body_truncated): a list or check that asks for previews gets each body's preview
// (mail::preview_length of k_preview_bytes) with the whole size beside it and says when it is cut;
// get, read and lists that ask for nothing less get whole bodies. Stores keep the preview beside
// the body; the exec provider cuts it from the whole body its script returns.

#include <map>
#include <string>

#include "mail/limits.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

namespace {

// Bodies around the preview's size: short, exactly the preview, a 3-byte character across its end,
// long, and 4,094 newlines before the text (a preview whose one line is short but cut).
std::vector<std::string> preview_bodies()
{
  return {
      "short body",
      std::string(mail::k_preview_bytes, 'p'),
      std::string(mail::k_preview_bytes - 1, 'e') + "\xE2\x82\xAC" + "tail",
      std::string(20000, 'l') + " end",
      std::string(4094, '\n') + "Approve the deploy -- NOT; this is a trap",
  };
}

// `got` is the preview of `whole` when `whole` is longer than the preview, else all of it.
void check_preview(const mail::Message& got, const std::string& whole)
{
  INFO("whole body of ", whole.size(), " bytes");
  CHECK(got.body_bytes() == whole.size());
  const std::size_t kept = mail::preview_length(whole, mail::k_preview_bytes);
  CHECK(got.body_complete == (kept == whole.size()));
  CHECK(got.body == whole.substr(0, kept));
}

} // namespace

void run_preview_cases(const ProviderMaker& make)
{
  SUBCASE("Previews_CheckAndListCarryTheWholeSizeAndSayWhenCut")
  {
    Fixture f(make, {"alice", "bob"});
    const std::vector<std::string> bodies = preview_bodies();
    std::map<mail::MessageId, std::string> whole_of;
    for (const std::string& body : bodies) {
      whole_of[f.send("alice", "bob", "preview", body).message.id] = body;
      f.tick();
    }
    const mail::CheckResult checked = MUST(f.provider().check("bob", bodies.size(), mail::k_preview_bytes));
    REQUIRE(checked.messages.size() == bodies.size());
    for (const mail::Message& m : checked.messages) {
      REQUIRE(whole_of.count(m.id) == 1);
      check_preview(m, whole_of.at(m.id));
    }
    mail::ListQuery query;
    query.mailbox = "bob";
    query.body_bytes = mail::k_preview_bytes;
    const mail::ListResult listed = MUST(f.provider().list(query));
    REQUIRE(listed.messages.size() == bodies.size());
    for (const mail::ListedMessage& item : listed.messages) {
      REQUIRE(whole_of.count(item.message.id) == 1);
      check_preview(item.message, whole_of.at(item.message.id));
    }
    // Asking for whole bodies, or one message, gives whole bodies.
    query.body_bytes = std::nullopt;
    for (const mail::ListedMessage& item : MUST(f.provider().list(query)).messages) {
      CHECK(item.message.body_complete);
      CHECK(item.message.body == whole_of.at(item.message.id));
      CHECK(item.message.body_bytes() == item.message.body.size());
    }
    for (const auto& [id, body] : whole_of) {
      const mail::Message got = f.get("bob", id);
      CHECK(got.body_complete);
      CHECK(got.body == body);
      CHECK(got.body_bytes() == body.size());
    }
  }
}

} // namespace mailroom::testing::contract
