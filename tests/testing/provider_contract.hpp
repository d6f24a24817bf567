#pragma once

// The provider contract suite: the one definition of correct mail::Provider behaviour. Every
// provider (the bead store on :memory: and on a file, the exec provider on stateful.sh) runs it
// from a doctest TEST_CASE beside its own tests, with a maker that opens a fresh, empty provider:
//
//   TEST_CASE("the bead store passes the provider contract") { run_provider_contract(make_store); }
//
// It holds Gas City's 32 conformance cases (gascity's internal/mail/mailtest/conformance.go;
// docs/gas-city.md) adapted to mailroom's per-recipient API, mailroom's own cases (guarded by the facets they
// need, facets(); a missing capability must answer unsupported), and a randomised property test against a
// model.
//
// This library knows no provider (scripts/check-layering.sh): the makers live in providers/.

#include <functional>
#include <memory>

#include "mail/message.hpp"
#include "mail/policy.hpp"
#include "mail/provider.hpp"
#include "testing/fixed_clock.hpp"

namespace mailroom::testing {

struct ProviderUnderTest {
  // Whatever the provider needs to outlive it (its clock, a temp directory...). Declared first so
  // it is destroyed after `provider`.
  std::shared_ptr<void> keep_alive;
  std::unique_ptr<mail::Provider> provider;
  // The clock the provider stamps, orders and expires messages by, when the test controls it
  // (owned through keep_alive). nullptr when the provider keeps its own time (the exec provider:
  // the script's clock); cases that need to move time then check only what real timestamps imply.
  FixedClock* clock = nullptr;
  // Size of the property test: random sequences, and steps per sequence. Lower them for slow
  // providers (one process per operation).
  int property_sequences = 20;
  int property_steps = 60;
  bool raw_bytes = true; // false when the wire is JSON text: invalid UTF-8 comes back as U+FFFD
  // True when change() answers `already` exactly when nothing changed. False for a provider that
  // can tell only some cases (the exec provider hears only a script's "already archived"); the
  // suite then accepts either outcome where it cannot be told.
  bool exact_outcomes = true;
  // False for a provider that knows only the state a Gas City script reports (the exec provider
  // on testdata/gc/gc_mail.sh): `read` from get and read only (thread entries carry none, so a
  // recipient's state there is unknown, nullopt), `archived` never (false), and no way to list
  // read mail (no `all`: list with include_read answers unsupported once mail is read). The suite
  // then checks what such a provider can tell, and that it never guesses the rest.
  bool full_state = true;
  // False for a provider whose reply is the one operation gc makes (the exec provider: its script
  // runs `get` and `reply`, nothing after the stored reply): the original then stays as it was
  // for the replier instead of being marked read.
  bool reply_reads_original = true;
  // Opens another provider on the same store (another process's connection, as a second host
  // would have), on the same clock; empty when the store cannot be shared (in memory, the exec
  // provider). Cases that race several writers use it.
  std::function<std::unique_ptr<mail::Provider>()> open_again;
};

// Makes a fresh, empty provider each call, under `policy` (the workspace's mail rules: who may be
// addressed, config agents, registration on send).
using ProviderMaker = std::function<ProviderUnderTest(const mail::MailPolicy& policy)>;

// Runs every contract case as a doctest SUBCASE, each on a fresh provider from `make`. Call it
// from a TEST_CASE; doctest re-enters the TEST_CASE once per SUBCASE.
void run_provider_contract(const ProviderMaker& make);

} // namespace mailroom::testing
