#include "exec/script_side.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "exec/wire.hpp"
#include "mail/address.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::exec {

namespace {

// What gc's writes through `mailroom gc-mail` record of the agent's presence: a command run for it
// (the stores record only what they are told).
constexpr mail::SeenVia k_gc_mail = mail::SeenVia::command;

// The ops answered, in the `capabilities` answer's order.
constexpr std::array<std::string_view, 16> k_ops = {
    "ensure-running", "capabilities", "send", "reply",     "inbox",       "check",   "all",    "count",
    "thread",         "get",          "read", "mark-read", "mark-unread", "archive", "delete", "unarchive"};

bool known_op(std::string_view op)
{
  return std::find(k_ops.begin(), k_ops.end(), op) != k_ops.end();
}

ScriptAnswer ok(std::string out = {})
{
  return ScriptAnswer{0, std::move(out), {}};
}

ScriptAnswer failed(std::string line)
{
  return ScriptAnswer{1, {}, std::move(line) + "\n"};
}

std::vector<mail::Mailbox> recipients_of(const mail::Message& message)
{
  std::vector<mail::Mailbox> all = message.to;
  all.insert(all.end(), message.cc.begin(), message.cc.end());
  return all;
}

// The mailbox whose delivery `me` acts on for message `id` (script_side.hpp: who acts). With
// `lenient` (get), a caller who cannot act for anyone views as itself.
Result<mail::Mailbox> acting_mailbox(mail::Provider& store, const mail::Mailbox& me,
                                     const mail::MessageId& id, bool lenient)
{
  TRY_ASSIGN(const mail::Message message, store.get(me, id));
  const std::vector<mail::Mailbox> recipients = recipients_of(message);
  if (recipients.empty() || std::find(recipients.begin(), recipients.end(), me) != recipients.end()) {
    return me;
  }
  if (recipients.size() == 1) {
    return recipients.front();
  }
  if (lenient) {
    return me;
  }
  return make_error(
      ErrorCode::not_recipient,
      fmt::format("\"{}\" is not a recipient of {}, which has several ({}); set MAILROOM_IDENTITY "
                  "or GC_AGENT to the one acting",
                  text::cap_for_echo(me), text::cap_for_echo(id),
                  text::cap_for_echo(text::join(recipients))));
}

// Registers `name` when the store has a registry and does not know it yet.
Result<void> register_on_first_use(mail::Provider& store, const mail::Mailbox& name)
{
  mail::Registry* registry = store.facets().registry;
  if (registry == nullptr || mail::is_reserved_mailbox(name)) {
    return {};
  }
  TRY_ASSIGN(const mail::MailboxInfo info, registry->mailbox_info(name));
  if (info.state == mail::MailboxInfo::State::unknown) {
    TRY(registry->add_agents({name}));
  }
  return {};
}

std::string message_array(const std::vector<mail::Message>& messages)
{
  if (messages.empty()) {
    return {}; // gc reads no output as no messages
  }
  std::string out = "[";
  for (std::size_t i = 0; i < messages.size(); ++i) {
    out += (i == 0 ? "" : ",") + wire_message_json(messages[i]);
  }
  return out + "]";
}

Result<mail::Message> parse_send_input(const std::string& input)
{
  auto parsed = parse_message(input);
  if (!parsed.ok()) {
    return make_error(ErrorCode::usage,
                      "the send JSON on standard input is malformed: " + parsed.error().message);
  }
  if (!mail::is_valid_mailbox(parsed->from)) {
    return make_error(ErrorCode::usage, fmt::format("the send JSON's from \"{}\" is not a mailbox",
                                                    text::cap_for_echo(parsed->from)));
  }
  return parsed;
}

std::optional<std::string> subject_of(const mail::Message& input)
{
  // gc sends "" when no subject was given: mailroom then derives one as it does for its own sends.
  return input.subject.empty() ? std::nullopt : std::optional<std::string>(input.subject);
}

Result<std::string> list(mail::Provider& store, const mail::Mailbox& mailbox, bool include_read)
{
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.include_read = include_read;
  TRY_ASSIGN(const mail::ListResult listed, store.list(query));
  std::vector<mail::Message> messages;
  for (const mail::ListedMessage& m : listed.messages) {
    messages.push_back(m.message);
  }
  return message_array(messages);
}

Result<std::string> change(mail::Provider& store, const mail::Mailbox& me, const mail::MessageId& id,
                           mail::Change what)
{
  TRY_ASSIGN(const mail::Mailbox acting, acting_mailbox(store, me, id, false));
  TRY_ASSIGN(const mail::ChangeOutcome outcome, store.change(mail::Actor{acting, me, k_gc_mail}, id, what));
  if (outcome == mail::ChangeOutcome::already &&
      (what == mail::Change::archive || what == mail::Change::remove)) {
    return make_error(ErrorCode::conflict,
                      fmt::format("message \"{}\" already archived", text::cap_for_echo(id)));
  }
  return std::string();
}

Result<std::string> run_op(mail::Provider& store, const ScriptCall& call, const std::string& arg)
{
  const std::string& op = call.op;
  if (op == "send" || op == "reply") {
    TRY_ASSIGN(const mail::Message input, parse_send_input(call.input));
    TRY(register_on_first_use(store, input.from));
    mail::SendReceipt receipt;
    if (op == "send") {
      if (!mail::is_valid_mailbox(arg)) {
        return make_error(ErrorCode::invalid_recipient,
                          fmt::format("\"{}\" is not a mailbox", text::cap_for_echo(arg)));
      }
      TRY(register_on_first_use(store, arg));
      mail::SendRequest request;
      request.from = input.from;
      request.seen_via = k_gc_mail;
      request.to = {arg};
      request.subject = subject_of(input);
      request.body = input.body;
      TRY_ASSIGN(receipt, store.send(request));
    } else {
      mail::ReplyRequest request;
      request.from = input.from;
      request.seen_via = k_gc_mail;
      request.id = arg;
      request.subject = subject_of(input);
      request.body = input.body;
      TRY_ASSIGN(receipt, store.reply(request));
    }
    mail::Message sent = receipt.message;
    sent.state = mail::DeliveryState{}; // fresh: unread for its recipient
    return wire_message_json(sent);
  }
  if (op == "inbox" || op == "check") {
    return list(store, arg, false); // one unread rule: check is the inbox, never marking
  }
  if (op == "all") {
    return list(store, arg, true);
  }
  if (op == "count") {
    TRY_ASSIGN(const mail::Counts counts, store.count(arg));
    return fmt::format("{{\"total\":{},\"unread\":{}}}", counts.total, counts.unread);
  }
  if (op == "thread") {
    auto thread = store.thread(call.me, arg);
    if (!thread.ok() && thread.error().code == ErrorCode::not_found) {
      return std::string(); // gc: an unknown thread is an empty one
    }
    TRY(thread);
    return message_array(thread->messages);
  }
  if (op == "get") {
    TRY_ASSIGN(const mail::Mailbox viewer, acting_mailbox(store, call.me, arg, true));
    TRY_ASSIGN(const mail::Message message, store.get(viewer, arg));
    return wire_message_json(message);
  }
  if (op == "read") {
    TRY_ASSIGN(const mail::Mailbox acting, acting_mailbox(store, call.me, arg, false));
    // The message as it was before marking; gc's read returns it marked.
    TRY_ASSIGN(mail::Message message, store.read(mail::Actor{acting, call.me, k_gc_mail}, arg,
                                                 [&](const mail::Message&) { return Result<void>(); }));
    if (message.state) {
      message.state->read = true;
    }
    return wire_message_json(message);
  }
  if (op == "mark-read") {
    return change(store, call.me, arg, mail::Change::mark_read);
  }
  if (op == "mark-unread") {
    return change(store, call.me, arg, mail::Change::mark_unread);
  }
  if (op == "archive") {
    return change(store, call.me, arg, mail::Change::archive);
  }
  if (op == "delete") {
    return change(store, call.me, arg, mail::Change::remove);
  }
  return change(store, call.me, arg, mail::Change::unarchive);
}

std::string describe_failure(const ScriptCall& call, const std::string& arg, const Error& error)
{
  if (error.code == ErrorCode::not_found) {
    return fmt::format("gc-mail-error:not-found: message \"{}\" not found", text::cap_for_echo(arg));
  }
  std::string line = fmt::format("mailroom gc-mail {}: {}", call.op, error.message);
  if (!error.hint.empty()) {
    line += " (" + error.hint + ")";
  }
  return line;
}

} // namespace

bool script_op_needs_store(std::string_view op)
{
  return op != "ensure-running" && op != "capabilities" && known_op(op);
}

bool script_op_writes(std::string_view op)
{
  constexpr std::array<std::string_view, 6> k_reads = {"inbox", "check", "all", "count", "thread", "get"};
  return std::find(k_reads.begin(), k_reads.end(), op) == k_reads.end();
}

ScriptAnswer answer_script_call(mail::Provider* store, const ScriptCall& call)
{
  if (call.op.empty()) {
    return failed("mailroom gc-mail: missing operation (see docs/gas-city.md)");
  }
  if (!known_op(call.op)) {
    // Exit 1, not gc's exit 2 for an unknown op: gc would read 2 as success.
    return failed(fmt::format("mailroom gc-mail: unknown operation \"{}\"", text::cap_for_echo(call.op)));
  }
  if (call.op == "ensure-running") {
    return ok();
  }
  if (call.op == "capabilities") {
    std::string ops;
    for (std::size_t i = 0; i < k_ops.size(); ++i) {
      ops += (i == 0 ? "\"" : ",\"") + std::string(k_ops[i]) + "\"";
    }
    return ok("{\"protocol\":1,\"ops\":[" + ops + "]}");
  }
  if (call.args.size() != 1 || call.args.front().empty()) {
    return failed(
        fmt::format("mailroom gc-mail {}: expected one argument, got {}", call.op, call.args.size()));
  }
  const std::string& arg = call.args.front();
  if (store == nullptr) {
    return failed(fmt::format("mailroom gc-mail {}: no store", call.op));
  }
  auto answered = run_op(*store, call, arg);
  if (!answered.ok()) {
    return failed(describe_failure(call, arg, answered.error()));
  }
  return ok(std::move(answered).value());
}

ScriptAnswer script_failure(std::string_view op, const Error& error)
{
  return failed(fmt::format("mailroom gc-mail {}: {}", op, error.message));
}

} // namespace mailroom::providers::exec
