#include "send_support.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/audience.hpp"
#include "mail/limits.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

namespace {

void push_unique(std::vector<mail::Mailbox>& list, const mail::Mailbox& name)
{
  if (std::find(list.begin(), list.end(), name) == list.end()) {
    list.push_back(name);
  }
}

std::vector<std::string> ids_of(const std::vector<mail::SendReceipt>& receipts)
{
  std::vector<std::string> ids;
  for (const auto& r : receipts) {
    ids.push_back(r.message.id);
  }
  return ids;
}

} // namespace

void add_body_options(CLI::App& command, BodySource& source)
{
  command.add_flag("--stdin", source.stdin_body, "read the body from standard input");
  command.add_option("--body-file", source.body_file, "read the body from this file")->type_name("PATH");
}

Result<std::optional<std::string>> read_body(Context& ctx, const BodySource& source,
                                                   const std::optional<std::string>& inline_body)
{
  const bool dash = inline_body && *inline_body == "-";
  const int sources = (inline_body && !dash ? 1 : 0) + ((dash || source.stdin_body) ? 1 : 0) +
                      (source.body_file ? 1 : 0);
  if (sources > 1 || (dash && source.stdin_body)) {
    return usage_error("give the body only once: as an argument, -m, --stdin (or -) or --body-file");
  }
  std::optional<std::string> body;
  if (dash || source.stdin_body) {
    TRY_ASSIGN(body, ctx.in.read_all(mail::k_max_body_bytes));
    if (body->empty()) {
      // Round 2's rule: an empty body from standard input is a usage error like an empty argument.
      return usage_error("the body from standard input is empty",
                         "give the body on standard input, or -m '' with -s for an empty body");
    }
  } else if (source.body_file) {
    TRY_ASSIGN(body, read_body_file(*source.body_file, mail::k_max_body_bytes));
  } else {
    body = inline_body;
  }
  if (body && body->size() > mail::k_max_body_bytes) {
    return usage_error(fmt::format("body is {} bytes; the limit is {}", body->size(), mail::k_max_body_bytes));
  }
  return body;
}

void add_priority_options(CLI::App& command, PriorityOptions& options)
{
  command.add_option("--priority", options.priority, "urgent, high, normal, low, backlog or 0-4")
    ->type_name("LEVEL");
  command.add_flag("--urgent", options.urgent, "same as --priority urgent");
}

Result<mail::Priority> resolve_priority(const PriorityOptions& options)
{
  mail::Priority priority = options.urgent ? mail::Priority::urgent : mail::Priority::normal;
  if (options.priority) {
    const auto parsed = mail::parse_priority(*options.priority);
    if (!parsed) {
      return usage_error(fmt::format("invalid priority \"{}\"", *options.priority),
                         "use urgent, high, normal, low, backlog or 0-4");
    }
    if (options.urgent && *parsed != mail::Priority::urgent) {
      return usage_error(fmt::format("--urgent conflicts with --priority \"{}\"", *options.priority));
    }
    priority = *parsed;
  }
  return priority;
}

Result<std::optional<std::string>> resolve_idempotency_key(Context& ctx, const std::optional<std::string>& flag)
{
  const std::optional<std::string> key = flag ? flag : ctx.env.get("MAILROOM_IDEMPOTENCY_KEY");
  if (!key || key->empty()) {
    return std::optional<std::string>{};
  }
  if (key->size() > mail::k_max_idempotency_key_bytes) {
    return usage_error(fmt::format("idempotency key is {} bytes; the limit is {}", key->size(),
                                   mail::k_max_idempotency_key_bytes));
  }
  return key;
}

Result<std::vector<mail::SendReceipt>> send_all(Context& ctx, mail::Provider& provider,
                                                const mail::SendRequest& request)
{
  std::vector<mail::SendReceipt> receipts;
  if (provider.capabilities().multi_recipient) {
    TRY_ASSIGN(mail::SendReceipt receipt, provider.send(request));
    receipts.push_back(std::move(receipt));
    return receipts;
  }
  TRY_ASSIGN(mail::Audience audience,
             mail::resolve_audience(request.from, request.to, request.cc, nullptr, ctx.policy));
  if (!audience.cc.empty()) {
    // Copies without the cc mark would silently turn cc into to.
    return make_error(ErrorCode::unsupported, "--cc needs a provider that stores cc recipients",
                      "send the copies with --to, or use the beads provider");
  }
  for (const mail::Mailbox& name : audience.to) {
    mail::SendRequest one = request;
    one.to = {name};
    auto receipt = provider.send(one);
    if (!receipt.ok()) {
      Error error = std::move(receipt).error();
      if (!receipts.empty()) {
        // Earlier copies are stored; say which, so a retry does not duplicate them.
        error.message += fmt::format(" (already sent: {})", join(ids_of(receipts)));
      }
      return error;
    }
    receipts.push_back(std::move(receipt).value());
  }
  return receipts;
}

text::DisplayText recipients_summary(const mail::Message& message,
                                     const std::vector<mail::Mailbox>& recipients)
{
  mail::Message delivered = message;
  delivered.to = recipients; // who it reached: the summary of a group, or these names
  delivered.cc.clear();
  return render::addressees(delivered, recipients.size());
}

nlohmann::json receipts_json(const std::vector<mail::SendReceipt>& receipts)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  std::vector<std::string> recipients;
  for (const auto& r : receipts) {
    for (const auto& name : r.recipients) {
      push_unique(recipients, name);
    }
  }
  doc["id"] = receipts.empty() ? "" : receipts.front().message.id;
  doc["thread_id"] = receipts.empty() ? "" : receipts.front().message.thread_id;
  doc["recipients"] = recipients;
  doc["ids"] = ids_of(receipts);
  doc["replayed"] = !receipts.empty() && receipts.front().replayed;
  return doc;
}

Result<std::optional<mail::TraceParent>> resolve_trace_parent(Context& ctx, mail::Provider& provider,
                                                              const std::optional<std::string>& flag)
{
  if (flag) {
    if (auto parent = mail::parse_traceparent(*flag)) {
      return parent;
    }
    auto id = provider.resolve_id(*flag);
    if (!id.ok()) {
      if (id.error().code == ErrorCode::not_found) {
        return usage_error(fmt::format("--trace \"{}\" is neither a traceparent nor a message id",
                                       text::cap_for_echo(*flag)),
                           "give 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>, or a message id");
      }
      return std::move(id).error();
    }
    TRY_ASSIGN(mail::Message message, provider.get(ctx.me.name, *id));
    return std::optional(mail::TraceParent{message.trace.trace_id, message.trace.span_id, "01"});
  }
  if (const auto env = ctx.env.get("TRACEPARENT"); env && !env->empty()) {
    if (auto parent = mail::parse_traceparent(*env)) {
      return parent;
    }
    warn(ctx, "invalid_traceparent", fmt::format("ignoring invalid TRACEPARENT \"{}\"", text::cap_for_echo(*env)));
  }
  return std::optional<mail::TraceParent>();
}

Result<void> print_receipts(Context& ctx, const std::vector<mail::SendReceipt>& receipts,
                            const std::optional<std::string>& key)
{
  Result<void> written;
  if (ctx.json) {
    written = write_json(ctx, receipts_json(receipts));
  } else {
    text::DisplayText text;
    for (const auto& r : receipts) {
      const text::DisplayText id = text::sanitize_line(r.message.id);
      const text::DisplayText to = recipients_summary(r.message, r.recipients);
      text += r.replayed ? text::DisplayText::format("Already sent message {} to {} (idempotency key {})\n",
                                                     id, to, text::sanitize_line(key.value_or("")))
                         : text::DisplayText::format("Sent message {} to {}\n", id, to);
    }
    written = write_text(ctx, text);
  }
  if (!written.ok()) {
    return make_error(ErrorCode::store_error,
                            fmt::format("stored {} but {}", join(ids_of(receipts)), written.error().message));
  }
  return {};
}

} // namespace mailroom::cli
