// mailroom's contract cases about search (contract "Views, search and filters"): the query
// language every store supports, visibility (what the caller sent or received), filters, ranking
// in broad strokes (ranking may differ between stores), and malformed queries.

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Change;
using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

mail::ListQuery search_query(const Mailbox& mailbox, const std::string& text, mail::Filters filters = {})
{
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.box = mail::Box::search;
  query.search = text;
  query.filters = std::move(filters);
  return query;
}

// The ids `viewer` finds with `text`, in the store's order; requires success.
std::vector<MessageId> found(Fixture& f, const Mailbox& viewer, const std::string& text,
                             mail::Filters filters = {})
{
  INFO("search as ", viewer, ": ", text);
  const mail::ListResult result = MUST(f.provider().list(search_query(viewer, text, std::move(filters))));
  CHECK(result.total == static_cast<std::int64_t>(result.messages.size()));
  for (const mail::ListedMessage& item : result.messages) {
    CHECK_FALSE(item.summary.has_value());
    const mail::Message& m = item.message;
    // Only what the viewer sent or received, with the viewer's own state.
    const bool recipient = contains(m.to, viewer) || contains(m.cc, viewer);
    CHECK((m.from == viewer || recipient));
    CHECK(m.state.has_value() == recipient);
  }
  return ids_of(result.messages);
}

std::vector<MessageId> found_sorted(Fixture& f, const Mailbox& viewer, const std::string& text,
                                    mail::Filters filters = {})
{
  return sorted(found(f, viewer, text, std::move(filters)));
}

} // namespace

void run_search_cases(const ProviderMaker& make)
{
  SUBCASE("Search_QueryLanguage")
  {
    Fixture f(make, k_people);
    if (!f.facets().views) {
      CHECK(code_of(f.provider().list(search_query("bob", "deploy"))) == "unsupported");
      return;
    }
    const auto m1 =
        f.send("alice", "bob", "Deploy failed", "the staging deploy failed at step three").message;
    f.tick();
    const auto m2 = f.reply("bob", m1.id, "retrying the deployment now").message; // "Re: Deploy failed"
    f.tick();
    const auto m3 = f.send("carol", "bob", "Lunch", "pizza or sushi?").message;
    f.tick();
    const auto m4 = f.send("carol", "dave", "deploy secret", "for dave only").message;
    f.tick();
    const auto m5 = f.send("alice", "bob", "Caf\xC3\xA9 menu",
                           "cr\xC3\xA8me br\xC3\xBBl\xC3\xA9"
                           "e")
                        .message;

    CHECK(found_sorted(f, "bob", "deploy") == sorted({m1.id, m2.id}));        // words, any case
    CHECK(found_sorted(f, "bob", "deploy failed") == sorted({m1.id, m2.id})); // all must match
    CHECK(found_sorted(f, "bob", "deploy pizza").empty());
    CHECK(found(f, "bob", "\"staging deploy\"") == std::vector<MessageId>{m1.id}); // phrase
    CHECK(found(f, "bob", "\"deploy staging\"").empty());
    CHECK(found(f, "bob", "deployment") == std::vector<MessageId>{m2.id});
    CHECK(found_sorted(f, "bob", "deploy*") == sorted({m1.id, m2.id})); // prefix
    CHECK(found(f, "bob", "retry*") == std::vector<MessageId>{m2.id});
    CHECK(found_sorted(f, "bob", "pizza OR retrying") == sorted({m2.id, m3.id}));
    CHECK(found(f, "bob", "deploy NOT staging") == std::vector<MessageId>{m2.id});
    CHECK(found(f, "bob", "(pizza OR sushi) lunch") == std::vector<MessageId>{m3.id});
    CHECK(found(f, "bob", "cafe") == std::vector<MessageId>{m5.id}); // diacritics fold
    CHECK(found(f, "bob", "creme") == std::vector<MessageId>{m5.id});
    CHECK(found(f, "bob", "carol") == std::vector<MessageId>{m3.id}); // the sender
    CHECK(found(f, "bob", "zebra").empty());
    // Punctuation is no syntax: no column filters, no unary minus; a word's parts form a phrase.
    CHECK(found(f, "bob", "subject:lunch").empty());
    CHECK(found(f, "bob", "step:three") == std::vector<MessageId>{m1.id});
    CHECK(found(f, "bob", "-staging") == std::vector<MessageId>{m1.id});

    // Malformed queries are usage errors, never a store failure.
    for (const std::string bad : {"", "deploy OR", "\"unterminated", "NOT deploy", "(deploy", "*", "a)"}) {
      INFO("query: ", bad);
      CHECK(code_of(f.provider().list(search_query("bob", bad))) == "usage");
    }
  }

  SUBCASE("Search_OnlyWhatTheCallerSentOrReceived")
  {
    Fixture f(make, k_people);
    if (!f.facets().views) {
      return;
    }
    const auto secret = f.send("carol", "dave", "deploy secret", "for dave only").message;
    const auto mine = f.send("alice", "bob", "deploy plan", "tomorrow").message;
    CHECK(found(f, "bob", "deploy") == std::vector<MessageId>{mine.id});
    CHECK(found(f, "alice", "deploy") == std::vector<MessageId>{mine.id}); // sent counts
    CHECK(found(f, "dave", "deploy") == std::vector<MessageId>{secret.id});
    CHECK(found(f, "carol", "dave") == std::vector<MessageId>{secret.id});
    CHECK(found(f, "nobody", "deploy").empty());
  }

  SUBCASE("Search_EveryMailbox")
  {
    Fixture f(make, k_people);
    if (!f.facets().views) {
      return;
    }
    const auto secret = f.send("carol", "dave", "deploy secret", "for dave only").message;
    const auto mine = f.send("alice", "bob", "deploy plan", "tomorrow").message;
    (void)f.send("alice", "bob", "lunch", "at noon");
    mail::ListQuery every = search_query("", "deploy");
    every.every_mailbox = true;
    const mail::ListResult result = MUST(f.provider().list(every));
    CHECK(result.total == 2);
    std::vector<MessageId> ids;
    for (const mail::ListedMessage& item : result.messages) {
      ids.push_back(item.message.id);
      CHECK_FALSE(item.message.state.has_value()); // nobody's read state
    }
    CHECK(sorted(ids) == sorted(std::vector<MessageId>{secret.id, mine.id}));
    every.limit = 1;
    CHECK(MUST(f.provider().list(every)).messages.size() == 1);
    // The same filters as one mailbox's search; a sender filter narrows it to carol's.
    every.limit.reset();
    every.filters.from = "carol";
    const mail::ListResult carols = MUST(f.provider().list(every));
    REQUIRE(carols.messages.size() == 1);
    CHECK(carols.messages[0].message.id == secret.id);
  }

  SUBCASE("Search_FiltersLimitsAndArchive")
  {
    Fixture f(make, k_people);
    if (!f.facets().views) {
      return;
    }
    const auto m1 = f.send("alice", "bob", "release notes", "release on friday").message;
    f.tick();
    const auto m2 = f.send("carol", "bob", "release party", "cake after the release").message;
    f.tick();
    const auto m3 = f.send("bob", "carol", "re release", "I will bring cake").message;
    mail::Filters from_carol;
    from_carol.from = "carol";
    CHECK(found(f, "bob", "release", from_carol) == std::vector<MessageId>{m2.id});
    mail::Filters to_carol;
    to_carol.to = "carol";
    CHECK(found(f, "bob", "release", to_carol) == std::vector<MessageId>{m3.id});
    mail::Filters in_thread;
    in_thread.thread = m1.thread_id;
    CHECK(found(f, "bob", "release", in_thread) == std::vector<MessageId>{m1.id});

    // Archiving hides nothing from search; --archived finds only the archive, --unread only unread.
    CHECK(f.change("bob", m1.id, Change::archive).ok());
    CHECK(found_sorted(f, "bob", "release") == sorted({m1.id, m2.id, m3.id}));
    mail::Filters archived;
    archived.archived = true;
    CHECK(found(f, "bob", "release", archived) == std::vector<MessageId>{m1.id});
    mail::Filters unread;
    unread.unread = true;
    CHECK(found(f, "bob", "release", unread) == std::vector<MessageId>{m2.id});

    auto query = search_query("bob", "release");
    query.limit = 2;
    const auto page = MUST(f.provider().list(query));
    CHECK(page.messages.size() == 2);
    CHECK(page.total == 3);
    CHECK(page.has_more());
  }

  SUBCASE("Search_BestMatchFirst")
  {
    Fixture f(make, k_people);
    if (!f.facets().views) {
      return;
    }
    std::string long_body;
    for (int i = 0; i < 60; ++i) {
      long_body += "filler words about nothing in particular ";
    }
    const auto weak = f.send("alice", "bob", "weekly digest", long_body + "kestrel " + long_body).message;
    f.tick();
    const auto strong = f.send("alice", "bob", "kestrel sighting", "a kestrel over the kestrel nest").message;
    f.tick();
    const auto weak_again = f.send("alice", "bob", "monthly digest", long_body + "kestrel").message;
    const auto ids = found(f, "bob", "kestrel");
    REQUIRE(ids.size() == 3);
    CHECK(ids.front() == strong.id);
    CHECK(sorted(ids) == sorted({weak.id, strong.id, weak_again.id}));
  }
}

} // namespace mailroom::testing::contract
