#pragma once

// Shared pieces of the provider contract suite (provider_contract*.cpp); not for other tests.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "mail/provider.hpp"
#include "base/result.hpp"
#include "testing/provider_contract.hpp"

namespace mailroom::testing::contract {

// "ok", or the error's code name ("not_found"...): compares and prints well in CHECKs.
template<typename T>
std::string code_of(const Result<T>& result)
{
  return result.ok() ? std::string("ok") : std::string(to_string(result.error().code));
}

// "ok", or "code: message" for failure reports.
template<typename T>
std::string describe(const Result<T>& result)
{
  if (result.ok()) {
    return "ok";
  }
  return std::string(to_string(result.error().code)) + ": " + result.error().message;
}

// Requires `result` to be ok and returns its value; `what` names the call in the failure report.
template<typename T>
T must(Result<T> result, const char* what)
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

std::vector<mail::MessageId> ids_of(const std::vector<mail::Message>& messages);
std::vector<mail::Mailbox> sorted(std::vector<mail::Mailbox> names);

// Checks that `messages` are in inbox order: priority, then created_at, then id.
void check_inbox_order(const std::vector<mail::Message>& messages);
// Checks that `messages` are oldest first (created_at, then id).
void check_chronological(const std::vector<mail::Message>& messages);

// A fresh provider with `mailboxes` registered when it has a registry, plus shorthands.
class Fixture {
public:
  Fixture(const ProviderMaker& make, const std::vector<mail::Mailbox>& mailboxes);

  mail::Provider& provider() { return *m_put.provider; }
  const mail::Capabilities& caps() const { return m_caps; }
  const ProviderUnderTest& under_test() const { return m_put; }

  // The provider's current time.
  mail::UnixMillis now() const;
  // True when tick() makes the next message strictly newer.
  bool can_tick() const { return static_cast<bool>(m_put.advance_clock); }
  // False when invalid UTF-8 comes back as U+FFFD (ProviderUnderTest::raw_bytes).
  bool raw_bytes() const { return m_put.raw_bytes; }
  // Advances the provider's clock when it can.
  void tick();

  // A request from `from` to `to` (a single recipient unless more are added) that requires
  // registered recipients exactly when the provider has a registry.
  mail::SendRequest request(const mail::Mailbox& from, std::vector<mail::Mailbox> to,
                            const std::string& subject = "subject",
                            const std::string& body = "body") const;
  // Sends and requires success; returns the receipt.
  mail::SendReceipt send(const mail::SendRequest& request);
  mail::SendReceipt send(const mail::Mailbox& from, const mail::Mailbox& to,
                         const std::string& subject = "subject", const std::string& body = "body");
  // Unread (or all open) message ids of `mailbox`, in inbox order; requires success.
  std::vector<mail::MessageId> inbox_ids(const mail::Mailbox& mailbox, bool include_read = false);
  // Reads `id` as `viewer` with a deliver that succeeds; requires success.
  mail::Message read(const mail::Mailbox& viewer, const mail::MessageId& id);
  // `viewer`'s view of `id`; requires success.
  mail::Message get(const mail::Mailbox& viewer, const mail::MessageId& id);
  mail::Counts count(const mail::Mailbox& mailbox);

private:
  ProviderUnderTest m_put;
  mail::Capabilities m_caps;
};

// The parts of run_provider_contract, each a list of SUBCASEs.
void run_gc_cases(const ProviderMaker& make);
void run_state_cases(const ProviderMaker& make);
void run_recipient_cases(const ProviderMaker& make);
void run_conversation_cases(const ProviderMaker& make);
void run_property_cases(const ProviderMaker& make);

} // namespace mailroom::testing::contract
