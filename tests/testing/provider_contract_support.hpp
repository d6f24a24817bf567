#pragma once

// Shared pieces of the provider contract suite (provider_contract*.cpp); not for other tests.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <doctest/doctest.h>

#include "base/result.hpp"
#include "mail/provider.hpp"
#include "testing/provider_contract.hpp"
#include "testing/reach.hpp"

namespace mailroom::testing::contract {

// The mail types every contract case file names.
using mail::AckState;
using mail::Change;
using mail::Mailbox;
using mail::MessageId;

// "ok", or the error's code name ("not_found"...): compares and prints well in CHECKs.
template <typename T> std::string code_of(const Result<T>& result)
{
  return result.ok() ? std::string("ok") : std::string(to_string(result.error().code));
}

// "ok", or "code: message" for failure reports.
template <typename T> std::string describe(const Result<T>& result)
{
  if (result.ok()) {
    return "ok";
  }
  return std::string(to_string(result.error().code)) + ": " + result.error().message;
}

// Requires `result` to be ok and returns its value; `what` names the call in the failure report.
template <typename T> T must(Result<T> result, const char* what)
{
  INFO(what, " -> ", describe(result));
  REQUIRE(result.ok());
  return std::move(result).value();
}

inline void must(const Result<void>& result, const char* what)
{
  INFO(what, " -> ", describe(result));
  REQUIRE(result.ok());
}

// MUST(expr): the value of a Result that has to succeed.
#define MUST(expr) ::mailroom::testing::contract::must((expr), #expr)

// A deliver function that accepts everything.
Result<void> deliver_ok(const mail::Message& message);

// `mailbox` acting on its own deliveries, through the CLI (seen_via command); request() and
// reply_request() send so too.
mail::Actor actor(const mail::Mailbox& mailbox);

// The viewer's delivery state of `message`; requires that the viewer has one.
const mail::DeliveryState& state_of(const mail::Message& message);

std::vector<mail::MessageId> ids_of(const std::vector<mail::Message>& messages);
std::vector<mail::MessageId> ids_of(const std::vector<mail::ListedMessage>& messages);
std::vector<mail::Mailbox> sorted(std::vector<mail::Mailbox> names);
bool contains(const std::vector<std::string>& list, const std::string& item);

class Fixture;

// Every record `f`'s store exports (created at or after `since`, when given).
std::vector<mail::Record> export_all(Fixture& f, std::optional<mail::UnixMillis> since = std::nullopt);
// The export lines of `records` (render/transfer.hpp): what "byte-identical" compares.
std::vector<std::string> lines_of(const std::vector<mail::Record>& records);
// Imports `records` into `f`'s store.
Result<mail::ImportReport> import_into(Fixture& f, const std::vector<mail::Record>& records);

// The records of kind T among `records`.
template <typename T> std::vector<T> only(const std::vector<mail::Record>& records)
{
  std::vector<T> out;
  for (const mail::Record& record : records) {
    if (const auto* r = std::get_if<T>(&record)) {
      out.push_back(*r);
    }
  }
  return out;
}

// Checks that `messages` are in inbox order: priority, then created_at (ties keep arrival order,
// which only the property test's model knows).
void check_inbox_order(const std::vector<mail::Message>& messages);
// Checks that `messages` are oldest first.
void check_chronological(const std::vector<mail::Message>& messages);

// A fresh provider with `mailboxes` registered when it has a registry, plus shorthands.
class Fixture {
public:
  Fixture(const ProviderMaker& make, const std::vector<mail::Mailbox>& mailboxes,
          const mail::MailPolicy& policy = {});

  mail::Provider& provider() { return *m_put.provider; }
  // The store's facets (mail/facets.hpp), asked once when the fixture was made.
  const mail::Facets& facets() const { return m_facets; }
  const ProviderUnderTest& under_test() const { return m_put; }

  // The provider's current time.
  mail::UnixMillis now() const;
  // True when the test controls the provider's clock (tick and advance move it).
  bool can_tick() const { return m_put.clock != nullptr; }
  // False when invalid UTF-8 comes back as U+FFFD (ProviderUnderTest::raw_bytes).
  bool raw_bytes() const { return m_put.raw_bytes; }
  // ProviderUnderTest::full_state.
  bool full_state() const { return m_put.full_state; }
  // ProviderUnderTest::reply_reads_original.
  bool reply_reads_original() const { return m_put.reply_reads_original; }
  // Moves the provider's clock a second forward when the test controls it, so the next message
  // is strictly newer.
  void tick();
  // Moves the provider's clock forward by `ms`; requires can_tick().
  void advance(mail::UnixMillis ms);

  // A request from `from` to the addresses `to`.
  mail::SendRequest request(const mail::Mailbox& from, std::vector<std::string> to,
                            const std::string& subject = "subject", const std::string& body = "body") const;
  // A request from `from` to `to` of message type `type`.
  mail::SendRequest typed_request(const mail::Mailbox& from, const mail::Mailbox& to, const std::string& type,
                                  const std::string& subject = "subject") const;
  // Sends and requires success; returns the receipt.
  mail::SendReceipt send(const mail::SendRequest& request);
  mail::SendReceipt send(const mail::Mailbox& from, const mail::Mailbox& to,
                         const std::string& subject = "subject", const std::string& body = "body");
  // A reply from `from` to message `id`.
  static mail::ReplyRequest reply_request(const mail::Mailbox& from, const mail::MessageId& id,
                                          const std::string& body = "reply");
  // Replies and requires success.
  mail::SendReceipt reply(const mail::Mailbox& from, const mail::MessageId& id,
                          const std::string& body = "reply");

  // The inbox of `mailbox` (unread, or every open message with `include_read`), in inbox order;
  // requires success and checks the order and the list's totals.
  std::vector<mail::Message> inbox(const mail::Mailbox& mailbox, bool include_read = false,
                                   std::optional<std::size_t> limit = std::nullopt);
  std::vector<mail::MessageId> inbox_ids(const mail::Mailbox& mailbox, bool include_read = false);
  mail::CheckResult check(const mail::Mailbox& mailbox, std::size_t limit);
  // Reads `id` as `viewer` with a deliver that succeeds; requires success.
  mail::Message read(const mail::Mailbox& viewer, const mail::MessageId& id);
  // `viewer`'s view of `id`; requires success.
  mail::Message get(const mail::Mailbox& viewer, const mail::MessageId& id);
  mail::Counts count(const mail::Mailbox& mailbox);
  // `change` on `mailbox`'s own delivery of `id`.
  Result<mail::ChangeOutcome> change(const mail::Mailbox& mailbox, const mail::MessageId& id,
                                     mail::Change change);
  // Requires `result` to be ok and `expected`, except that an `already` the provider cannot tell
  // (exact_outcomes false) may come back as `changed`.
  void expect_outcome(const Result<mail::ChangeOutcome>& result, mail::ChangeOutcome expected) const;

private:
  ProviderUnderTest m_put;
  mail::Facets m_facets;
};

// The parts of run_provider_contract, each a list of SUBCASEs.
void run_gc_cases(const ProviderMaker& make);
void run_gc_change_cases(const ProviderMaker& make); // called by run_gc_cases
void run_state_cases(const ProviderMaker& make);
void run_recipient_cases(const ProviderMaker& make);
void run_registry_cases(const ProviderMaker& make);
void run_conversation_cases(const ProviderMaker& make);
void run_reply_effect_cases(const ProviderMaker& make);
void run_view_cases(const ProviderMaker& make);
void run_expiry_cases(const ProviderMaker& make);
void run_reqresp_cases(const ProviderMaker& make);
void run_claim_cases(const ProviderMaker& make);
void run_take_cases(const ProviderMaker& make); // wait --read
void run_health_cases(const ProviderMaker& make);
void run_team_cases(const ProviderMaker& make);
void run_operator_cases(const ProviderMaker& make); // recent traces, pairs, claims shown
void run_sweep_cases(const ProviderMaker& make);
void run_reach_cases(const ProviderMaker& make);   // the hook's order and classes
void run_list_cases(const ProviderMaker& make);    // sent and filters
void run_preview_cases(const ProviderMaker& make); // body previews, body_bytes, cut or whole
void run_search_cases(const ProviderMaker& make);
void run_event_cases(const ProviderMaker& make);    // the event log: writes, retention
void run_transfer_cases(const ProviderMaker& make); // export, import, purge, id prefixes
void run_stream_cases(const ProviderMaker& make);   // send --dedup/--supersede, open deliveries
void run_property_cases(const ProviderMaker& make);
void run_request_cases(const ProviderMaker& make);      // the life of a request: each move
void run_request_life_cases(const ProviderMaker& make); // its TTL, the sweep, team, export, waits
void run_wake_cases(const ProviderMaker& make);         // wake targets and the wake ledger
void run_wake_send_cases(const ProviderMaker& make);    // the wakes a send or a firing records

} // namespace mailroom::testing::contract
