// mailroom's contract cases about keeping and moving mail (contract "Keeping and moving mail"):
// export -> import -> export is lossless between two stores, importing twice changes nothing, a
// conflict or a bad record stores nothing, id prefixes, and purge (with search and counts staying
// right after each).

#include <string>

#include "render/transfer.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Change;
using mail::Mailbox;
using mail::MessageId;
using mail::Record;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

// Gives `records`, then fails like a malformed line.
class FailingSource final : public mail::RecordSource {
public:
  explicit FailingSource(const std::vector<Record>& records) : m_records(records) {}
  Result<std::optional<Record>> next() override
  {
    if (m_next < m_records.size()) {
      return std::optional<Record>(m_records[m_next++]);
    }
    return make_error(ErrorCode::usage, "dump.jsonl:99: not JSON");
  }

private:
  const std::vector<Record>& m_records;
  std::size_t m_next = 0;
};

mail::ListQuery search_of(const Mailbox& viewer, const std::string& text)
{
  mail::ListQuery query;
  query.mailbox = viewer;
  query.box = mail::Box::search;
  query.search = text;
  return query;
}

std::vector<MessageId> search_ids(Fixture& f, const Mailbox& viewer, const std::string& text)
{
  return sorted(ids_of(MUST(f.provider().list(search_of(viewer, text))).messages));
}

// Mail with every kind of state a store keeps: cc, types, priorities, a reply's acks, reads,
// archives, an operator's action, an explicit ack, a ttl, an idempotency key and raw bytes.
std::vector<MessageId> fill(Fixture& f)
{
  auto request = f.request("alice", {"bob", "carol"}, "plan for friday", "ship the kestrel release");
  request.cc = {"dave"};
  request.type = "task_request";
  request.priority = mail::Priority::high;
  request.idempotency_key = "job-1";
  const auto plan = f.send(request).message;
  f.tick();
  const auto answer = f.reply("carol", plan.id, "done, kestrel shipped").message;
  f.tick();
  f.read("bob", plan.id);
  CHECK(f.change("dave", plan.id, Change::archive).ok());
  CHECK(f.provider().change(mail::Actor{"bob", "dave"}, plan.id, Change::ack).ok());
  auto fleeting = f.request("bob", {"alice"}, "fleeting", "gone in a minute");
  fleeting.ttl = 60 * mail::k_second_ms;
  const auto expiring = f.send(fleeting).message;
  f.tick();
  const std::string body = f.raw_bytes() ? std::string("raw \xFF\xFE bytes\n") : std::string("plain bytes");
  const auto raw = f.send("dave", "alice", "bytes", body).message;
  return {plan.id, answer.id, expiring.id, raw.id};
}

} // namespace

void run_transfer_cases(const ProviderMaker& make)
{
  SUBCASE("Transfer_RoundTripIsLosslessAndIdempotent")
  {
    Fixture a(make, k_people);
    if (!a.facets().transfer) {
      const std::vector<Record> nothing;
      mail::VectorSource none(nothing);
      CHECK(code_of(reach(a.provider()).export_records({}, [](const Record&) { return Result<void>(); })) ==
            "unsupported");
      CHECK(code_of(reach(a.provider()).import_records(none)) == "unsupported");
      CHECK(code_of(reach(a.provider()).purge({})) == "unsupported");
      return;
    }
    const auto ids = fill(a);
    const auto records = export_all(a);
    CHECK(only<mail::MailboxRecord>(records).size() == k_people.size());
    CHECK(only<mail::MessageRecord>(records).size() == ids.size());
    CHECK(only<mail::DeliveryRecord>(records).size() == 3 + 1 + 1 + 1);
    CHECK(only<mail::KeyRecord>(records).size() == 1);

    Fixture b(make, {});
    const auto report = MUST(import_into(b, records));
    CHECK(report.added == static_cast<std::int64_t>(records.size()));
    CHECK(report.messages == static_cast<std::int64_t>(ids.size()));
    CHECK(report.skipped == 0);
    CHECK(lines_of(export_all(b)) == lines_of(records));

    // Importing the same records again changes nothing.
    const auto again = MUST(import_into(b, records));
    CHECK(again.added == 0);
    CHECK(again.skipped == static_cast<std::int64_t>(records.size()));
    CHECK(lines_of(export_all(b)) == lines_of(records));

    // The copy behaves as the original: lists, counts, state, the registry and search.
    for (const Mailbox& who : k_people) {
      INFO("mailbox ", who);
      CHECK(b.inbox_ids(who, true) == a.inbox_ids(who, true));
      CHECK(b.count(who).total == a.count(who).total);
      CHECK(b.count(who).unread == a.count(who).unread);
      CHECK(search_ids(b, who, "kestrel") == search_ids(a, who, "kestrel"));
    }
    for (const MessageId& id : ids) {
      const auto original = a.get("bob", id);
      const auto copy = b.get("bob", id);
      CHECK(copy.body == original.body);
      CHECK(copy.state.has_value() == original.state.has_value());
      if (copy.state) {
        CHECK(copy.state->read == original.state->read);
        CHECK(copy.state->ack_state == original.state->ack_state);
      }
    }
    CHECK(search_ids(b, "carol", "kestrel").size() == 2);
    CHECK(MUST(reach(b.provider()).directory()).active == MUST(reach(a.provider()).directory()).active);
    // The key came along: the same send is a replay in the copy too.
    auto request = b.request("alice", {"bob", "carol"}, "plan for friday", "ship the kestrel release");
    request.cc = {"dave"};
    request.type = "task_request";
    request.priority = mail::Priority::high;
    request.idempotency_key = "job-1";
    const auto replay = MUST(b.provider().send(request));
    CHECK(replay.replayed);
    CHECK(replay.message.id == ids[0]);
  }

  SUBCASE("Transfer_ConflictOrBadRecordStoresNothing")
  {
    Fixture a(make, k_people);
    if (!a.facets().transfer) {
      return;
    }
    const auto ids = fill(a);
    const auto records = export_all(a);
    Fixture b(make, {});
    MUST(import_into(b, records));
    const auto before = lines_of(export_all(b));

    // A new message first, then one that contradicts the store: neither is kept.
    auto fresh = only<mail::MessageRecord>(records).front();
    fresh.message.id = "mr-00000000000000f1";
    auto changed = only<mail::MessageRecord>(records).front();
    changed.message.subject = "a different subject";
    auto result = import_into(b, {fresh, changed});
    CHECK(code_of(result) == "conflict");
    CHECK(result.error().message.find("subject") != std::string::npos);
    CHECK(code_of(b.provider().get("bob", fresh.message.id)) == "not_found");
    CHECK(lines_of(export_all(b)) == before);

    auto delivery = only<mail::DeliveryRecord>(records).front();
    delivery.status.read_at = 12345;
    CHECK(code_of(import_into(b, {fresh, delivery})) == "conflict");
    auto key = only<mail::KeyRecord>(records).front();
    key.fingerprint = "other";
    CHECK(code_of(import_into(b, {fresh, key})) == "conflict");

    // A malformed line, a record a store may not hold, a delivery of an unknown message.
    std::vector<Record> good = {fresh};
    FailingSource failing(good);
    result = reach(b.provider()).import_records(failing);
    CHECK(code_of(result) == "usage");
    CHECK(result.error().message == "dump.jsonl:99: not JSON");
    auto bad = fresh;
    bad.message.from = "not a mailbox!";
    CHECK(code_of(import_into(b, {fresh, bad})) == "usage");
    auto orphan = only<mail::DeliveryRecord>(records).front();
    orphan.message = "mr-00000000000000f2";
    CHECK(code_of(import_into(b, {fresh, orphan})) == "usage");
    CHECK(code_of(b.provider().get("bob", fresh.message.id)) == "not_found");
    CHECK(lines_of(export_all(b)) == before);
    // After all that, the records still import into an empty store.
    Fixture c(make, {});
    CHECK(MUST(import_into(c, records)).added == static_cast<std::int64_t>(records.size()));
  }

  SUBCASE("Transfer_IdsOutsideTheGrammarStoreNothing")
  {
    // Ids from a file are data: one that a command line would read as an option (an imported
    // "--all" once made `mark-read <id>` mark every message), a path or several words is refused.
    Fixture a(make, k_people);
    if (!a.facets().transfer) {
      return;
    }
    a.send("alice", "bob", "hello", "first");
    const auto records = export_all(a);
    const auto message = only<mail::MessageRecord>(records).front();
    const auto delivery = only<mail::DeliveryRecord>(records).front();
    Fixture b(make, k_people);
    const auto before = lines_of(export_all(b));
    for (const std::string bad : {"--all", "-rf", "../../x", "a b", "mr-\x1b[31m", ".x", "a/b", ""}) {
      CAPTURE(bad);
      auto hostile = message;
      hostile.message.id = bad;
      auto hostile_delivery = delivery;
      hostile_delivery.message = bad;
      auto result = import_into(b, {hostile, hostile_delivery});
      CHECK(code_of(result) == "usage");
      CHECK(result.error().message.find("\"id\"") != std::string::npos);
      auto threaded = message;
      threaded.message.thread_id = bad;
      CHECK(code_of(import_into(b, {threaded})) == "usage");
      auto replying = message;
      replying.message.reply_to = bad;
      CHECK(code_of(import_into(b, {replying})) == "usage");
      // A good record first: the whole import is refused, nothing is stored.
      CHECK(code_of(import_into(b, {message, delivery, hostile})) == "usage");
      CHECK(lines_of(export_all(b)) == before);
    }
    CHECK(code_of(b.provider().get("bob", message.message.id)) == "not_found");
    // Gas City's ids are foreign but fit the grammar.
    auto foreign = message;
    foreign.message.id = "gc-42";
    auto foreign_delivery = delivery;
    foreign_delivery.message = "gc-42";
    CHECK(MUST(import_into(b, {foreign, foreign_delivery})).messages == 1);
  }

  SUBCASE("Transfer_IdPrefixesAcrossImportedIds")
  {
    Fixture a(make, k_people);
    if (!a.facets().transfer || !a.facets().views) {
      return;
    }
    const auto plan = a.send("alice", "bob", "osprey", "osprey nest").message;
    const auto records = export_all(a);
    auto first = only<mail::MessageRecord>(records).front();
    auto second = first;
    first.message.id = "mr-abcd000000000001";
    second.message.id = "mr-abcd000000000002";
    Fixture b(make, k_people);
    MUST(import_into(b, {first, second}));
    const auto ambiguous = reach(b.provider()).resolve_id("abcd");
    REQUIRE(code_of(ambiguous) == "ambiguous_id");
    CHECK(sorted(ambiguous.error().suggestions) == sorted({first.message.id, second.message.id}));
    CHECK(code_of(reach(b.provider()).resolve_id("mr-abcd0000")) == "ambiguous_id");
    CHECK(MUST(reach(b.provider()).resolve_id("abcd000000000002")) == second.message.id);
    CHECK(MUST(reach(b.provider()).resolve_id("mr-abcd000000000001")) == first.message.id);
    CHECK(search_ids(b, "alice", "osprey") == sorted({first.message.id, second.message.id}));
    CHECK(code_of(b.provider().get("bob", plan.id)) == "not_found");
  }

  SUBCASE("Transfer_ExportSince")
  {
    Fixture a(make, k_people);
    if (!a.facets().transfer || !a.can_tick()) {
      return;
    }
    const auto old = a.send("alice", "bob", "old", "old news").message;
    a.advance(mail::k_hour_ms);
    const mail::UnixMillis cut = a.now();
    auto keyed = a.request("alice", {"bob", "carol"}, "new", "fresh news");
    keyed.idempotency_key = "k-new";
    const auto fresh = a.send(keyed).message;
    const auto records = export_all(a, cut);
    CHECK(only<mail::MailboxRecord>(records).size() == k_people.size());
    const auto messages = only<mail::MessageRecord>(records);
    REQUIRE(messages.size() == 1);
    CHECK(messages.front().message.id == fresh.id);
    for (const auto& d : only<mail::DeliveryRecord>(records)) {
      CHECK(d.message == fresh.id);
    }
    CHECK(only<mail::DeliveryRecord>(records).size() == 2);
    CHECK(only<mail::KeyRecord>(records).size() == 1);
    CHECK(old.id != fresh.id);
  }

  SUBCASE("Purge_DeletesLongArchivedAndExpiredMailAndKeepsKeys")
  {
    Fixture f(make, k_people);
    if (!f.facets().transfer || !f.can_tick()) {
      return;
    }
    const auto archived = f.send("alice", "bob", "heron", "archived heron").message;
    const auto half =
        f.send(f.request("alice", {"bob", "carol"}, "heron two", "half archived heron")).message;
    auto keyed = f.request("alice", {"bob"}, "heron three", "keyed heron");
    keyed.idempotency_key = "job-9";
    const auto with_key = f.send(keyed).message;
    auto fleeting = f.request("alice", {"carol"}, "heron four", "expiring heron");
    fleeting.ttl = 10 * mail::k_second_ms;
    const auto expiring = f.send(fleeting).message;
    const auto kept = f.send("alice", "bob", "heron five", "unarchived heron").message;
    for (const MessageId& id : {archived.id, half.id, with_key.id}) {
      CHECK(f.change("bob", id, Change::archive).ok());
    }
    f.advance(2 * mail::k_day_ms);
    CHECK(f.change("bob", kept.id, Change::archive).ok()); // archived just now

    mail::PurgeRequest request;
    request.older_than = mail::k_day_ms;
    request.dry_run = true;
    auto report = MUST(reach(f.provider()).purge(request));
    CHECK(report.dry_run);
    CHECK(report.messages == 3); // archived, with_key, expiring
    CHECK(report.deliveries == 3);
    CHECK(search_ids(f, "alice", "heron").size() == 5);

    request.dry_run = false;
    report = MUST(reach(f.provider()).purge(request));
    CHECK(report.messages == 3);
    for (const MessageId& id : {archived.id, with_key.id, expiring.id}) {
      CHECK(code_of(f.provider().get("alice", id)) == "not_found");
    }
    CHECK(search_ids(f, "alice", "heron") == sorted({half.id, kept.id}));
    CHECK(search_ids(f, "bob", "keyed").empty());
    CHECK(f.count("bob").total == 0);   // half and kept are archived for bob
    CHECK(f.count("carol").total == 1); // half; the expired one is gone
    CHECK(f.inbox_ids("carol") == std::vector<MessageId>{half.id});
    CHECK(MUST(reach(f.provider()).purge(request)).messages == 0);

    // The key stays: the same send is refused instead of sent twice, and a new key works.
    CHECK(code_of(f.provider().send(keyed)) == "conflict");
    const auto keys = only<mail::KeyRecord>(export_all(f));
    REQUIRE(keys.size() == 1);
    CHECK_FALSE(keys.front().message.has_value());
    keyed.idempotency_key = "job-10";
    CHECK(code_of(f.provider().send(keyed)) == "ok");
    // A purged store still round-trips.
    const auto records = export_all(f);
    Fixture b(make, {});
    MUST(import_into(b, records));
    CHECK(lines_of(export_all(b)) == lines_of(records));
  }
}

} // namespace mailroom::testing::contract
