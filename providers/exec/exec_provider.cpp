#include "exec/exec_provider.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "exec/order.hpp"
#include "exec/script.hpp"
#include "exec/wire.hpp"

namespace mailroom::providers::exec {

namespace {

using mail::ChangeOutcome;
using mail::Mailbox;
using mail::Message;
using mail::MessageId;

class ExecProvider final : public mail::Provider {
public:
  ExecProvider(mail::ExecSettings settings, std::string identity)
      : m_script(std::move(settings), std::move(identity))
  {
  }

  mail::Capabilities capabilities() const override
  {
    mail::Capabilities caps;
    caps.unarchive = true; // asked of the script; exit 2 there is unsupported
    return caps;
  }

  Result<mail::SendReceipt> send(const mail::SendRequest& request) override
  {
    if (request.broadcast) {
      return m_script.unsupported("@all (the exec protocol has no registry)");
    }
    if (request.to.empty()) {
      return make_error(ErrorCode::usage, "no recipients");
    }
    if (request.to.size() != 1) {
      return m_script.unsupported("several recipients in one send");
    }
    TRY(check_extras(!request.cc.empty(), request.priority, request.type, request.idempotency_key));
    const std::string& to = request.to.front();
    TRY_ASSIGN(Message sent, run_message("send", to, mail::Mailbox(request.from), request.subject, request.body));
    mail::SendReceipt receipt;
    receipt.message = std::move(sent);
    receipt.recipients = {to};
    return receipt;
  }

  Result<mail::SendReceipt> reply(const MessageId& id, const mail::ReplyRequest& request) override
  {
    if (request.reply_all) {
      return m_script.unsupported("reply --all");
    }
    TRY(check_extras(false, request.priority, request.type, request.idempotency_key));
    // Only the sender or a recipient of the original may reply (provider.hpp), so `get` it first.
    // A script that cannot answer `get` is trusted with an explicit subject, as gc never asks.
    auto original = run_wire_message("get", id);
    if (!original.ok() && (original.error().code != ErrorCode::unsupported || !request.subject)) {
      return std::move(original).error();
    }
    if (original.ok() && !is_party(original->message, request.from)) {
      return not_party(request.from, id);
    }
    const std::string subject =
        request.subject ? *request.subject : mail::reply_subject(original->message.subject);
    TRY_ASSIGN(Message sent, run_message("reply", id, mail::Mailbox(request.from), subject, request.body));
    mail::SendReceipt receipt;
    receipt.recipients = sent.to;
    receipt.message = std::move(sent);
    return receipt;
  }

  Result<std::vector<Message>> inbox(const Mailbox& mailbox, const mail::ListOptions& options) override
  {
    TRY_ASSIGN(std::vector<Message> messages, run_list(options.include_read ? "all" : "inbox", mailbox));
    sort_inbox(messages);
    if (options.limit && messages.size() > *options.limit) {
      messages.resize(*options.limit);
    }
    return messages;
  }

  Result<mail::CheckResult> check(const Mailbox& mailbox, std::size_t limit) override
  {
    TRY_ASSIGN(std::vector<Message> messages, run_list("check", mailbox));
    sort_inbox(messages);
    mail::CheckResult result;
    result.unread = static_cast<std::int64_t>(messages.size());
    if (messages.size() > limit) {
      messages.resize(limit);
    }
    result.messages = std::move(messages);
    return result;
  }

  Result<mail::Counts> count(const Mailbox& mailbox) override
  {
    TRY_ASSIGN(const ScriptOutput out, m_script.run("count", mailbox));
    auto counts = parse_counts(out.text);
    if (!counts.ok()) {
      return m_script.bad_output("count", mailbox, counts.error());
    }
    return *counts;
  }

  Result<Message> get(const Mailbox& viewer, const MessageId& id) override
  {
    TRY_ASSIGN(Message message, run_message("get", id));
    TRY(check_viewer(message, viewer, id));
    return message;
  }

  Result<Message> read(const Mailbox& viewer, const MessageId& id, const mail::DeliverFn& deliver) override
  {
    // The protocol's `read` marks before the output is written, so it is only the fallback: `get`,
    // deliver, and mark only once delivery worked and there is something to mark (provider.hpp).
    auto got = run_message("get", id);
    if (!got.ok() && got.error().code == ErrorCode::unsupported) {
      return read_with_protocol_read(viewer, id, deliver);
    }
    TRY(got);
    Message message = std::move(got).value();
    TRY(check_viewer(message, viewer, id));
    TRY(deliver(message));
    if (is_recipient(message, viewer) && !message.read) {
      TRY(m_script.run("mark-read", id));
    }
    return message;
  }

  Result<ChangeOutcome> mark_read(const Mailbox& mailbox, const MessageId& id) override
  {
    TRY_ASSIGN(const auto before, delivery_of(mailbox, id));
    if (before && before->message.read) {
      return ChangeOutcome::already;
    }
    return run_change("mark-read", id);
  }

  Result<ChangeOutcome> mark_unread(const Mailbox& mailbox, const MessageId& id) override
  {
    TRY_ASSIGN(const auto before, delivery_of(mailbox, id));
    if (before && !before->message.read) {
      return ChangeOutcome::already;
    }
    return run_change("mark-unread", id);
  }

  // `archived` is a mailroom extension of the wire Message: only a script that reports it can be
  // believed about it. Without it, archive relies on the script's "already archived" and
  // unarchive reports every success as a change.
  Result<ChangeOutcome> archive(const Mailbox& mailbox, const MessageId& id) override
  {
    TRY_ASSIGN(const auto before, delivery_of(mailbox, id));
    if (before && before->reports_archived && before->message.archived) {
      return ChangeOutcome::already;
    }
    return run_change("archive", id);
  }

  Result<ChangeOutcome> unarchive(const Mailbox& mailbox, const MessageId& id) override
  {
    TRY_ASSIGN(const auto before, delivery_of(mailbox, id));
    if (before && before->reports_archived && !before->message.archived) {
      return ChangeOutcome::already;
    }
    return run_change("unarchive", id);
  }

  Result<std::vector<MessageId>> mark_all_read(const Mailbox& mailbox) override
  {
    TRY_ASSIGN(const std::vector<Message> unread, run_list("inbox", mailbox));
    std::vector<MessageId> changed;
    for (const Message& m : unread) {
      TRY(m_script.run("mark-read", m.id));
      changed.push_back(m.id);
    }
    return changed;
  }

  Result<mail::ThreadResult> thread(const Mailbox& viewer, const std::string& thread_or_message_id) override
  {
    mail::ThreadResult result;
    result.thread_id = thread_or_message_id;
    TRY_ASSIGN(result.messages, run_list("thread", thread_or_message_id));
    if (result.messages.empty()) {
      // Not a thread id the script knows: maybe a message id (gascity#1526).
      auto message = run_message("get", thread_or_message_id);
      if (!message.ok()) {
        if (message.error().code == ErrorCode::not_found || message.error().code == ErrorCode::unsupported) {
          return make_error(ErrorCode::not_found,
                                  fmt::format("thread or message \"{}\" not found", thread_or_message_id));
        }
        return std::move(message).error();
      }
      if (!message->thread_id.empty() && message->thread_id != thread_or_message_id) {
        result.thread_id = message->thread_id;
        TRY_ASSIGN(result.messages, run_list("thread", message->thread_id));
      }
      if (result.messages.empty()) {
        result.messages.push_back(std::move(message).value());
      }
    } else if (!result.messages.front().thread_id.empty()) {
      result.thread_id = result.messages.front().thread_id;
    }
    std::erase_if(result.messages, [&](const Message& m) { return !is_party(m, viewer); });
    for (Message& m : result.messages) {
      apply_viewer_state(m, viewer);
    }
    sort_thread(result.messages);
    return result;
  }

  Result<std::vector<mail::DeliveryStatus>> status(const Mailbox& /*viewer*/, const MessageId& /*id*/) override
  {
    return m_script.unsupported("status");
  }

  Result<void> ensure_registered(const Mailbox& /*mailbox*/) override { return {}; }

  Result<std::vector<mail::Agent>> agents() override { return m_script.unsupported("agents"); }

  Result<std::vector<Mailbox>> add_agents(const std::vector<Mailbox>& /*names*/) override
  {
    return m_script.unsupported("agents add");
  }

  Result<void> remove_agent(const Mailbox& /*name*/) override { return m_script.unsupported("agents remove"); }

private:
  // What the send JSON cannot carry is refused, never dropped (gc-mail.md §7.5).
  Result<void> check_extras(bool has_cc, mail::Priority priority, const std::string& type,
                            const std::optional<std::string>& idempotency_key) const
  {
    if (has_cc) {
      return m_script.unsupported("--cc");
    }
    if (priority != mail::Priority::normal) {
      return m_script.unsupported("--priority");
    }
    if (type != mail::k_default_type) {
      return m_script.unsupported("--type");
    }
    if (idempotency_key) {
      return m_script.unsupported("--idempotency-key");
    }
    return {};
  }

  static Error not_party(const Mailbox& viewer, const MessageId& id)
  {
    return make_error(ErrorCode::not_recipient,
                            fmt::format("\"{}\" is neither the sender nor a recipient of message \"{}\"", viewer, id));
  }

  // The script's read/archived flags are the recipient's; a sender who is not a recipient has no
  // delivery record and sees the message as read and not archived (provider.hpp).
  static void apply_viewer_state(Message& message, const Mailbox& viewer)
  {
    if (!is_recipient(message, viewer)) {
      message.read = true;
      message.archived = false;
    }
  }

  // A viewer who neither sent nor received the message may not see it.
  static Result<void> check_viewer(Message& message, const Mailbox& viewer, const MessageId& id)
  {
    if (!is_party(message, viewer)) {
      return not_party(viewer, id);
    }
    apply_viewer_state(message, viewer);
    return {};
  }

  // For a script that cannot `get`: its `read` marks before delivery, so a failed delivery
  // leaves the message read; nothing here can undo that reliably.
  Result<Message> read_with_protocol_read(const Mailbox& viewer, const MessageId& id, const mail::DeliverFn& deliver)
  {
    TRY_ASSIGN(Message message, run_message("read", id));
    TRY(check_viewer(message, viewer, id));
    TRY(deliver(message));
    return message;
  }

  // Per-recipient changes need a delivery record (provider.hpp): `get` first, and refuse with
  // not_recipient when the script's message names recipients and `mailbox` is not one of them.
  // A `get` the script cannot answer (exit 2, no output, ...) skips the check, as gc never asks.
  Result<std::optional<WireMessage>> delivery_of(const Mailbox& mailbox, const MessageId& id)
  {
    auto got = run_wire_message("get", id);
    if (!got.ok()) {
      if (got.error().code == ErrorCode::not_found || got.error().code == ErrorCode::usage) {
        return std::move(got).error();
      }
      return std::optional<WireMessage>();
    }
    const Message& message = got->message;
    if ((!message.to.empty() || !message.cc.empty()) && !is_recipient(message, mailbox)) {
      return make_error(ErrorCode::not_recipient,
                              fmt::format("\"{}\" is not a recipient of message \"{}\"", mailbox, id));
    }
    return std::optional<WireMessage>(std::move(got).value());
  }

  Result<Message> run_message(std::string_view op, const std::string& arg)
  {
    TRY_ASSIGN(WireMessage wire, run_wire_message(op, arg));
    return std::move(wire.message);
  }

  Result<WireMessage> run_wire_message(std::string_view op, const std::string& arg)
  {
    return parse_one(op, arg, m_script.run(op, arg));
  }

  Result<Message> run_message(std::string_view op, const std::string& arg, const Mailbox& from,
                              const std::string& subject, const std::string& body)
  {
    TRY_ASSIGN(WireMessage wire, parse_one(op, arg, m_script.run(op, arg, send_json(from, subject, body))));
    return std::move(wire.message);
  }

  Result<WireMessage> parse_one(std::string_view op, const std::string& arg, Result<ScriptOutput> out)
  {
    TRY(out);
    if (out->text.empty()) {
      return make_error(ErrorCode::provider_error,
                              fmt::format("{}: exited 0 without printing a message", m_script.describe(op, arg)));
    }
    auto message = parse_wire_message(out->text);
    if (!message.ok()) {
      return m_script.bad_output(op, arg, message.error());
    }
    return message;
  }

  Result<std::vector<Message>> run_list(std::string_view op, const std::string& arg)
  {
    TRY_ASSIGN(const ScriptOutput out, m_script.run(op, arg));
    auto messages = parse_messages(out.text);
    if (!messages.ok()) {
      return m_script.bad_output(op, arg, messages.error());
    }
    return messages;
  }

  Result<ChangeOutcome> run_change(std::string_view op, const MessageId& id)
  {
    TRY_ASSIGN(const ScriptOutput out, m_script.run(op, id));
    return out.already ? ChangeOutcome::already : ChangeOutcome::changed;
  }

  Script m_script;
};

} // namespace

Result<std::unique_ptr<mail::Provider>> open_exec_provider(const mail::ExecSettings& settings,
                                                            const std::string& identity)
{
  if (settings.command.empty()) {
    return make_error(ErrorCode::usage, "the exec provider needs a command after \"exec:\"");
  }
  return std::unique_ptr<mail::Provider>(std::make_unique<ExecProvider>(settings, identity));
}

} // namespace mailroom::providers::exec
