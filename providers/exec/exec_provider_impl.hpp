#pragma once

// The exec provider's class (exec_provider.hpp has the contract): exec_provider.cpp holds
// sending, reading and changes, exec_lists.cpp the lists, counts and threads. Not for use
// outside providers/exec.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "exec/exec_provider.hpp"
#include "exec/hook_cache.hpp"
#include "exec/script.hpp"
#include "exec/wire.hpp"
#include "mail/provider.hpp"

namespace mailroom::providers::exec {

using mail::ChangeOutcome;
using mail::Mailbox;
using mail::Message;
using mail::MessageId;

// gc's thread ids: "thread-" and 12 hex digits (docs/exec-protocol.md, "Wire formats").
inline constexpr std::string_view k_gc_thread_prefix = "thread-";

class ExecProvider final : public mail::Provider,
                           public mail::Unarchive,
                           public mail::Roster,
                           public mail::HookCheck {
public:
  ExecProvider(mail::ExecSettings settings, mail::MailPolicy policy, std::string identity,
               std::string facts_file, RegistryLoader registry = {}, const mail::Clock* clock = nullptr);
  // Only `unarchive`, unless the script's cached facts say it has no such op (Script::
  // lacks_extension); the protocol has nothing else. Never spawns.
  mail::Facets facets() override;

  // One recipient per call (no whole_sends facet): ops::send expands addresses with
  // mail::resolve_audience and sends once per mailbox.
  Result<mail::SendReceipt> send(const mail::SendRequest& request) override;
  Result<mail::SendReceipt> reply(const mail::ReplyRequest& request) override;
  Result<mail::ListResult> list(const mail::ListQuery& query) override;
  Result<mail::CheckResult> check(const Mailbox& mailbox, std::size_t limit,
                                  std::optional<std::size_t> /*body_bytes*/) override;
  Result<mail::Counts> count(const Mailbox& mailbox) override;
  Result<Message> get(const Mailbox& viewer, const MessageId& id) override;
  Result<Message> read(const mail::Actor& actor, const MessageId& id,
                       const mail::DeliverFn& deliver) override;
  Result<std::optional<Message>> take(const mail::Actor& actor, const MessageId& id,
                                      const mail::DeliverFn& deliver) override;

  // Every state change runs the script's operation: state the script did not report is unknown,
  // so `get` decides only who the recipients are, and what it reported only whether to say
  // `already` (the script's own "already archived" too).
  Result<ChangeOutcome> change(const mail::Actor& actor, const MessageId& id, mail::Change change) override;
  Result<std::vector<MessageId>> mark_all_read(const Mailbox& mailbox) override;
  Result<mail::ThreadResult> thread(const Mailbox& viewer, const std::string& thread_or_message_id) override;

  // The registry sends and identities are checked against: the loader's, else an empty one when
  // `[agents] names` is set (resolve_audience and the identity guard add those); nullopt when
  // neither is configured.
  Result<std::optional<mail::Directory>> roster() override;

  // The hook through a slow script (hook_answers.cpp): the last `check` answer is kept in a
  // HookCache beside the facts cache; present only when there is such a place.
  Result<std::optional<mail::HookAnswer>> hook_check(const Mailbox& mailbox, std::size_t limit,
                                                     std::optional<std::size_t> body_bytes,
                                                     std::chrono::steady_clock::time_point answer_by,
                                                     const mail::StartRefresh& start_refresh) override;
  Result<bool> refresh_hook_check(const Mailbox& mailbox) override;

private:
  // check's answer from the script's `check` output `text` for `mailbox`.
  Result<mail::CheckResult> check_from_output(const Mailbox& mailbox, const std::string& text,
                                              std::size_t limit, std::optional<std::size_t> body_bytes);
  // The kept hook answers of `mailbox`.
  HookCache hook_cache(const Mailbox& mailbox) const;

  // What the send JSON cannot carry is refused, never dropped (docs/exec-protocol.md, "Operations a script
  // may leave out").
  Result<void> check_extras(mail::Priority priority, const std::string& type, bool ack,
                            const std::optional<mail::Millis>& ttl,
                            const std::optional<std::string>& idempotency_key) const;
  static Error not_party(const Mailbox& viewer, const MessageId& id);

  // read's second half, after `get` returned `got`: deliver, then mark unless known read.
  Result<Message> deliver_then_mark(const mail::Actor& actor, const MessageId& id, WireMessage got,
                                    const mail::DeliverFn& deliver);

  // For a script that cannot `get`: its `read` marks before delivery, so a failed delivery
  // leaves the message read; nothing here can undo that reliably.
  Result<Message> read_with_protocol_read(const Mailbox& viewer, const MessageId& id,
                                          const mail::DeliverFn& deliver);

  // A change needs a delivery record (provider.hpp): `get` first and refuse with not_recipient when
  // the script's message names recipients and `mailbox` is not one of them. Returns what `get`
  // said; nullopt when the script cannot answer it, which skips the check, as gc never asks.
  Result<std::optional<WireMessage>> check_recipient(const Mailbox& mailbox, const MessageId& id);

  // inbox --all. The protocol's `all` when the script has it; otherwise composed from `count` and
  // `inbox`, which is exact when every open message is unread, and unsupported when some are read
  // (no gc op lists those): never a shorter list passed off as the whole.
  Result<std::vector<Message>> list_all(const Mailbox& mailbox);
  Result<WireMessage> run_wire(std::string_view op, const std::string& arg);

  // send and reply: a fresh message is unread for its recipients.
  Result<Message> run_message(std::string_view op, const std::string& arg, const Mailbox& from,
                              const std::string& subject, const std::string& body);
  Result<WireMessage> parse_one(std::string_view op, const std::string& arg, Result<ScriptOutput> out);
  Result<std::vector<WireMessage>> parse_list(std::string_view op, const std::string& arg,
                                              const std::string& text);

  // A list op's messages as `viewer` (default: `arg`, the mailbox listed) sees them; a read flag
  // the script left out is `read_if_unreported` (false for inbox and check: they list unread mail).
  Result<std::vector<Message>> run_list(std::string_view op, const std::string& arg, const Mailbox& viewer,
                                        std::optional<bool> read_if_unreported);
  // Forgets the remembered `get` answer: every other script run may have changed the message.
  void forget_get();

  Script m_script;
  std::string m_command;  // what follows "exec:", as configured
  std::string m_hook_dir; // where hook answers are kept ("": nowhere, no hook_check facet)
  mail::MailPolicy m_policy;
  // The last `get` (id, answer), reused by the next `get` of that id when no other run came
  // between: `[compat] gc`'s choice of the acting recipient and the operation's own check then
  // cost one run, not two.
  std::optional<std::pair<MessageId, WireMessage>> m_last_get;
  RegistryLoader m_registry;
  std::optional<std::optional<mail::Directory>> m_roster; // roster(), once loaded
  mail::SystemClock m_system_clock;
  const mail::Clock* m_clock; // dates kept hook answers: the caller's, else m_system_clock
};

} // namespace mailroom::providers::exec
