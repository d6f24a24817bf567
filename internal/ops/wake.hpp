#pragma once

// Waking an idle agent (contract "Reaching an idle agent (wake)" and its decisions after review),
// the operations: setting a mailbox's target (`agents set NAME --wake …`), whether a send wakes
// its recipients ([wake] on), running the wakes a send recorded or a pass finds due (the hidden
// `wake-run` child, and the long-running processes' wake pass), and how a mailbox's wake is shown
// (`agents list`, `team`, MCP `wake_status`). The store records and claims (mail/facets/wakes.hpp);
// internal/wake parses targets and runs them.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/health.hpp"
#include "mail/wake.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

// --- agents set NAME --wake WORDS… | --no-wake ---

struct WakeSetRequest {
  std::string name;
  std::vector<std::string> words; // empty with `remove`
  bool remove = false;            // --no-wake
};

struct WakeSetResult {
  mail::Mailbox name;
  std::optional<std::string> target; // the display form; none when removed
};

// Parses the target (internal/wake: argv, @NAME of [wake.targets], tmux:TARGET) and stores it with
// this process's host and uid and the tmux socket. Errors: usage (exit 2) when it does not parse or
// names no [wake.targets] entry, or for a bad mailbox; not_found for an unregistered one;
// unsupported on a store without a wake ledger.
Result<WakeSetResult> set_wake(Session& session, const WakeSetRequest& request);
// {"schema_version":1,"ok":true,"name":…,"wake":{"target":…}|null}
nlohmann::json to_json(const WakeSetResult& result);
text::DisplayText to_text(const WakeSetResult& result);
nlohmann::json wake_set_output_schema();

// --- how a mailbox's wake is shown ---

struct WakeView {
  mail::Mailbox mailbox;
  std::optional<std::string> target; // display form; none when removed since its last wake
  std::optional<mail::UnixMillis> last_at;
  std::optional<mail::WakeOutcome> outcome;
  std::string reason;
  bool failed = false; // its last wake did not reach the agent (failed, unreachable)
};

// Every mailbox with a target or a recorded wake; empty on a store without the ledger (exec).
Result<std::vector<WakeView>> wake_views(Session& session);
// The view of `name` among `views`, or nullptr.
const WakeView* find_wake(const std::vector<WakeView>& views, const mail::Mailbox& name);
// A row's "wake": {"target","last_at","outcome","reason"} or null without a target or wake.
nlohmann::json wake_json(const WakeView* view);
// The JSON schema of wake_json.
nlohmann::json wake_schema();
// One line per mailbox with a target or a wake: "wake: bob → tmux:main:0.1, last sent 2m ago";
// empty when there is none. For agents list and team, after their table.
text::DisplayText wake_lines(const std::vector<WakeView>& views, mail::UnixMillis now);

// wake_status (MCP) and the same as JSON: {"schema_version":1,"wakes":[{"mailbox",…wake_json,
// "failed"}],"recent":[ledger rows of `mailbox`…]}.
struct WakeStatusRequest {
  std::optional<std::string> mailbox; // only this one, with its recent ledger rows
  std::size_t limit = 20;
};
struct WakeStatusResult {
  std::vector<WakeView> wakes;
  std::vector<mail::WakeRow> recent;
  mail::UnixMillis now = 0;
};
Result<WakeStatusResult> wake_status(Session& session, const WakeStatusRequest& request);
nlohmann::json to_json(const WakeStatusResult& result);
// wake_lines of the wakes, then one line per recent ledger row.
text::DisplayText to_text(const WakeStatusResult& result, const render::Style& style);
nlohmann::json wake_status_output_schema();

// --- after a send ---

// Which messages wake their recipients under [wake] on, for a send made with --notify or --wake
// (`notified`) or not: what every send, reply and firing carries to its store (mail::WakeWhen),
// which records the wakes with the message.
mail::WakeWhen wake_when(const Session& session, bool notified);

// The stored messages among `receipts` whose recorded wake this process could run now
// (Wakes::wake_ready: its target set from this host and user, the recipient not in its
// cooldown): the ones worth starting `wake-run` for. The others wait for a wake pass or the
// recipient's next wake. Empty on a store without the ledger; a failure is nothing to start (a
// wake never fails a send).
std::vector<mail::MessageId> messages_to_wake(Session& session,
                                              const std::vector<mail::SendReceipt>& receipts);

// The redeliveries of a sweep pass whose recipient has a wake target (the sweep's redelivery
// wakes too, as attempt k). Empty on a store without the ledger or on failure.
std::vector<mail::Redelivery> redeliveries_to_wake(Session& session,
                                                   const std::vector<mail::Redelivery>& redelivered);

// --- running wakes ---

struct WakeRunRequest {
  std::vector<mail::MessageId> messages;  // a send's or a redelivery's; empty: a pass
  std::int64_t attempt = 0;               // 0 for a send, k for redelivery k
  std::optional<mail::Mailbox> recipient; // a redelivery's: only its recipient is woken
};

struct WakeRan {
  mail::WakeKey key;
  mail::WakeOutcome outcome = mail::WakeOutcome::sent;
  std::string reason;
};

struct WakeRunReport {
  std::vector<WakeRan> ran;           // claimed and run here
  std::vector<mail::WakeRow> settled; // skipped, deferred, unreachable here
};

// Records the wakes of `request.messages` (or, for a pass, finds the due ones), claims those this
// process may run (its host and uid set their target), runs each through internal/wake and
// records how it ended (event wake.done). Nothing on a store without the ledger. Errors: usage for
// a bad [wake] line; the store's.
Result<WakeRunReport> run_wakes(Session& session, const WakeRunRequest& request);

// {"schema_version":1,"ran":[{"recipient","message_id","attempt","outcome","reason"}],
//  "settled":[the same]}
nlohmann::json to_json(const WakeRunReport& report);
nlohmann::json wake_run_output_schema();
// One line per wake run or settled here ("Woke bob for mr-…", "Deferred bob's wake (cooldown)").
text::DisplayText to_text(const WakeRunReport& report, const render::Style& style);

// A wake pass that never fails its caller (serve, sweep --every, schedule run-due --loop): its
// error is dropped, to be tried again at the next pass.
void wake_pass(Session& session);

} // namespace mailroom::ops
