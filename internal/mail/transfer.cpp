#include "mail/transfer.hpp"

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/delivery_fields.hpp"
#include "mail/ids.hpp"
#include "mail/limits.hpp"
#include "mail/message_fields.hpp"
#include "mail/types.hpp"
#include "text/strings.hpp"

namespace mailroom::mail {

namespace {

Error bad_field(std::string_view kind, std::string_view field, std::string_view why)
{
  return make_error(ErrorCode::usage, fmt::format("{} record: \"{}\" {}", kind, field, why));
}

Result<void> check_mailbox(std::string_view kind, std::string_view field, std::string_view value)
{
  if (!is_valid_mailbox(value)) {
    return bad_field(kind, field, fmt::format("is not a mailbox: \"{}\"", text::cap_for_echo(value, 80)));
  }
  return {};
}

// Ids are data: one that could be read as an option, a path or several words is refused.
Result<void> check_id(std::string_view kind, std::string_view field, std::string_view value)
{
  if (!is_valid_id(value)) {
    return bad_field(kind, field,
                     fmt::format("is not an id: \"{}\" (an id is 1 to {} letters, digits, '.', '_' or '-', "
                                 "starting with a letter or a digit)",
                                 text::cap_for_echo(value, 80), k_max_id_bytes));
  }
  return {};
}

bool is_lower_hex(std::string_view text, std::size_t size)
{
  return text.size() == size && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

Result<void> check(const MailboxRecord& r)
{
  return check_mailbox("mailbox", "name", r.name);
}

Result<void> check(const MessageRecord& r)
{
  const Message& m = r.message;
  TRY(check_id("message", "id", m.id));
  TRY(check_mailbox("message", "from", m.from));
  for (const auto& list : {&m.to, &m.cc}) {
    for (const Mailbox& name : *list) {
      TRY(check_mailbox("message", list == &m.to ? "to" : "cc", name));
    }
  }
  if (m.subject.size() > k_max_subject_bytes) {
    return bad_field("message", "subject", fmt::format("is longer than {} bytes", k_max_subject_bytes));
  }
  if (m.body.size() > k_max_body_bytes) {
    return bad_field("message", "body", fmt::format("is longer than {} bytes", k_max_body_bytes));
  }
  TRY(check_id("message", "thread_id", m.thread_id));
  if (m.reply_to) {
    TRY(check_id("message", "reply_to", *m.reply_to));
  }
  if (!is_valid_type_name(m.type)) {
    return bad_field("message", "type",
                     fmt::format("is not a type name: \"{}\"", text::cap_for_echo(m.type, 80)));
  }
  if (!is_lower_hex(m.trace.trace_id, 32)) {
    return bad_field("message", "trace_id", "is not 32 lower-case hex digits");
  }
  if (!is_lower_hex(m.trace.span_id, 16)) {
    return bad_field("message", "span_id", "is not 16 lower-case hex digits");
  }
  if (m.trace.parent_span_id && !is_lower_hex(*m.trace.parent_span_id, 16)) {
    return bad_field("message", "parent_span_id", "is not 16 lower-case hex digits");
  }
  return {};
}

Result<void> check(const DeliveryRecord& r)
{
  TRY(check_id("delivery", "message", r.message));
  TRY(check_mailbox("delivery", "recipient", r.status.recipient));
  if (r.status.kind != "to" && r.status.kind != "cc") {
    return bad_field("delivery", "role", "must be \"to\" or \"cc\"");
  }
  if (r.status.ack_state == AckState::failed) {
    return bad_field("delivery", "ack_state",
                     "\"failed\" is never stored (it is awaiting_ack or escalated past expiry)");
  }
  if (r.status.request_state == RequestState::expired) {
    return bad_field("delivery", "request_state",
                     "\"expired\" is never stored (it is submitted or working past expiry)");
  }
  if (r.status.attempts < 0 || r.status.handler_attempts < 0) {
    return bad_field("delivery", r.status.attempts < 0 ? "attempts" : "handler_attempts", "is negative");
  }
  if (r.status.acted_by) {
    TRY(check_mailbox("delivery", "acted_by", *r.status.acted_by));
  }
  return {};
}

Result<void> check(const KeyRecord& r)
{
  TRY(check_mailbox("idempotency_key", "sender", r.sender));
  if (r.key.empty() || r.key.size() > k_max_idempotency_key_bytes) {
    return bad_field("idempotency_key", "key",
                     fmt::format("must be 1 to {} bytes", k_max_idempotency_key_bytes));
  }
  if (r.fingerprint.empty()) {
    return bad_field("idempotency_key", "fingerprint", "is empty");
  }
  if (r.message) {
    TRY(check_id("idempotency_key", "message", *r.message)); // null means purged
  }
  return {};
}

// Appends `name` to `out` when `a` and `b` differ.
template <typename T> void compare(std::vector<std::string>& out, const char* name, const T& a, const T& b)
{
  if (!(a == b)) {
    out.emplace_back(name);
  }
}

} // namespace

Result<void> check(const ScheduleRecord& r)
{
  return check_schedule_record(r);
}

Result<void> check(const FiringRecord& r)
{
  return check_firing_record(r);
}

Result<void> check(const WakeTargetRecord& r)
{
  return check_wake_target_record(r);
}

Result<void> check(const WakeRecord& r)
{
  return check_wake_record(r);
}

Result<void> check_record(const Record& record)
{
  return std::visit([](const auto& r) { return check(r); }, record);
}

std::vector<std::string> differences(const MessageRecord& a, const MessageRecord& b)
{
  std::vector<std::string> out;
  for_each_message_field(
      [&](auto /*kind*/, const MessageField& field, const auto& x, const auto& y) {
        if (!(x == y)) {
          out.emplace_back(field.key);
        }
      },
      a.message, b.message);
  compare(out, "schedule", a.message.schedule, b.message.schedule);
  compare(out, "slot", a.message.slot, b.message.slot);
  return out;
}

std::vector<std::string> differences(const DeliveryRecord& a, const DeliveryRecord& b)
{
  std::vector<std::string> out;
  compare(out, "message", a.message, b.message);
  // Every stored field, by its export key (mail/delivery_fields.hpp); an expiry is compared only
  // when both records have their own.
  for_each_delivery_field(
      [&](auto /*kind*/, const DeliveryField& field, const auto& x, const auto& y) {
        if (field.column == "expires_at" && !(a.own_expiry && b.own_expiry)) {
          return;
        }
        if (!(x == y)) {
          out.emplace_back(field.export_key);
        }
      },
      a.status, b.status);
  return out;
}

std::vector<std::string> differences(const KeyRecord& a, const KeyRecord& b)
{
  std::vector<std::string> out;
  compare(out, "sender", a.sender, b.sender);
  compare(out, "key", a.key, b.key);
  compare(out, "fingerprint", a.fingerprint, b.fingerprint);
  compare(out, "message", a.message, b.message);
  compare(out, "created_at", a.created_at, b.created_at);
  return out;
}

} // namespace mailroom::mail
