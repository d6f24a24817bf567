#include "exec/exec_provider.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "exec/script.hpp"
#include "exec/wire.hpp"

namespace mailroom::providers::exec {

namespace {

using mail::ChangeOutcome;
using mail::ErrorCode;
using mail::Mailbox;
using mail::Message;
using mail::MessageId;
using mail::Result;

bool is_party(const Message& m, const Mailbox& mailbox)
{
  const auto in = [&](const std::vector<Mailbox>& list) {
    return std::find(list.begin(), list.end(), mailbox) != list.end();
  };
  return m.from == mailbox || in(m.to) || in(m.cc);
}

bool is_recipient(const Message& m, const Mailbox& mailbox)
{
  return std::find(m.to.begin(), m.to.end(), mailbox) != m.to.end()
         || std::find(m.cc.begin(), m.cc.end(), mailbox) != m.cc.end();
}

// Inbox order (provider.hpp): urgent first, then oldest, then id.
void sort_inbox(std::vector<Message>& messages)
{
  std::stable_sort(messages.begin(), messages.end(), [](const Message& a, const Message& b) {
    if (a.priority != b.priority) {
      return a.priority < b.priority;
    }
    if (a.created_at != b.created_at) {
      return a.created_at < b.created_at;
    }
    return a.id < b.id;
  });
}

void sort_thread(std::vector<Message>& messages)
{
  std::stable_sort(messages.begin(), messages.end(), [](const Message& a, const Message& b) {
    return a.created_at != b.created_at ? a.created_at < b.created_at : a.id < b.id;
  });
}

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
      return mail::make_error(ErrorCode::usage, "no recipients");
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
    std::string subject;
    if (request.subject) {
      subject = *request.subject;
    } else {
      TRY_ASSIGN(const Message original, run_message("get", id));
      subject = mail::reply_subject(original.subject);
    }
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
    // The protocol's `read` marks before we can deliver; when delivery fails (or the viewer had no
    // business reading it) a message that was unread is put back, best effort.
    TRY_ASSIGN(Message message, run_message("read", id));
    Result<void> outcome = check_viewer(message, viewer, id);
    if (outcome.ok()) {
      outcome = deliver(message);
    }
    if (!outcome.ok()) {
      if (!message.read) {
        (void)m_script.run("mark-unread", id);
      }
      return std::move(outcome).error();
    }
    return message;
  }

  Result<ChangeOutcome> mark_read(const Mailbox& mailbox, const MessageId& id) override
  {
    TRY_ASSIGN(const auto before, delivery_of(mailbox, id));
    if (before && before->read) {
      return ChangeOutcome::already;
    }
    return run_change("mark-read", id);
  }

  Result<ChangeOutcome> mark_unread(const Mailbox& mailbox, const MessageId& id) override
  {
    TRY_ASSIGN(const auto before, delivery_of(mailbox, id));
    if (before && !before->read) {
      return ChangeOutcome::already;
    }
    return run_change("mark-unread", id);
  }

  Result<ChangeOutcome> archive(const Mailbox& mailbox, const MessageId& id) override
  {
    TRY(delivery_of(mailbox, id));
    return run_change("archive", id);
  }

  Result<ChangeOutcome> unarchive(const Mailbox& mailbox, const MessageId& id) override
  {
    TRY(delivery_of(mailbox, id));
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
          return mail::make_error(ErrorCode::not_found,
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

  // A viewer who neither sent nor received the message may not see it; a sender who is not a
  // recipient sees it as read (provider.hpp).
  static Result<void> check_viewer(Message& message, const Mailbox& viewer, const MessageId& id)
  {
    if (!is_party(message, viewer)) {
      return mail::make_error(ErrorCode::not_recipient,
                              fmt::format("\"{}\" is neither the sender nor a recipient of message \"{}\"", viewer, id));
    }
    if (!is_recipient(message, viewer)) {
      message.read = true;
    }
    return {};
  }

  // Per-recipient changes need a delivery record (provider.hpp): `get` first, and refuse with
  // not_recipient when the script's message names recipients and `mailbox` is not one of them.
  // A `get` the script cannot answer (exit 2, no output, ...) skips the check, as gc never asks.
  Result<std::optional<Message>> delivery_of(const Mailbox& mailbox, const MessageId& id)
  {
    auto got = run_message("get", id);
    if (!got.ok()) {
      if (got.error().code == ErrorCode::not_found || got.error().code == ErrorCode::usage) {
        return std::move(got).error();
      }
      return std::optional<Message>();
    }
    if ((!got->to.empty() || !got->cc.empty()) && !is_recipient(*got, mailbox)) {
      return mail::make_error(ErrorCode::not_recipient,
                              fmt::format("\"{}\" is not a recipient of message \"{}\"", mailbox, id));
    }
    return std::optional<Message>(std::move(got).value());
  }

  Result<Message> run_message(std::string_view op, const std::string& arg)
  {
    return parse_one(op, arg, m_script.run(op, arg));
  }

  Result<Message> run_message(std::string_view op, const std::string& arg, const Mailbox& from,
                              const std::string& subject, const std::string& body)
  {
    return parse_one(op, arg, m_script.run(op, arg, send_json(from, subject, body)));
  }

  Result<Message> parse_one(std::string_view op, const std::string& arg, Result<ScriptOutput> out)
  {
    TRY(out);
    if (out->text.empty()) {
      return mail::make_error(ErrorCode::provider_error,
                              fmt::format("{}: exited 0 without printing a message", m_script.describe(op, arg)));
    }
    auto message = parse_message(out->text);
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
    return mail::make_error(ErrorCode::usage, "the exec provider needs a command after \"exec:\"");
  }
  return std::unique_ptr<mail::Provider>(std::make_unique<ExecProvider>(settings, identity));
}

} // namespace mailroom::providers::exec
