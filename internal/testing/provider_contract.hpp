#pragma once

// The provider contract suite: the one definition of correct mail::Provider behaviour. Every
// provider (the SQLite bead store, the exec provider, FakeProvider) runs it from a doctest TEST_CASE:
//
//   TEST_CASE("FakeProvider passes the provider contract") { run_provider_contract(make_fake); }
//
// It holds Gas City's 32 conformance cases (reference/gc-mail.md §8.1) adapted to mailroom's
// per-recipient API, mailroom's own cases (guarded by capabilities() where they need one; a missing
// capability must answer unsupported), and a randomised property test against a model.

#include <functional>
#include <memory>

#include "mail/message.hpp"
#include "mail/provider.hpp"

namespace mailroom::testing {

struct ProviderUnderTest {
  // Whatever the provider needs to outlive it (its clock, a temp directory...). Declared first so
  // it is destroyed after `provider`.
  std::shared_ptr<void> keep_alive;
  std::unique_ptr<mail::Provider> provider;
  // The time the provider stamps messages with; empty means the system clock.
  std::function<mail::UnixMillis()> now;
  // Moves the provider's clock forward so the next message is strictly newer than the last; empty
  // when the provider uses real time (ordering cases then only check what the timestamps imply).
  std::function<void()> advance_clock;
  // Size of the property test: random sequences, and steps per sequence. Lower them for slow
  // providers (one process per operation).
  int property_sequences = 20;
  int property_steps = 60;
  bool raw_bytes = true; // false when the wire is JSON text: invalid UTF-8 comes back as U+FFFD
};

// Makes a fresh, empty provider each call.
using ProviderMaker = std::function<ProviderUnderTest()>;

// Runs every contract case as a doctest SUBCASE, each on a fresh provider from `make`. Call it
// from a TEST_CASE; doctest re-enters the TEST_CASE once per SUBCASE.
void run_provider_contract(const ProviderMaker& make);

} // namespace mailroom::testing
