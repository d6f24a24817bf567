// The export records of wake targets and the wake ledger (docs/export-format.md): every column a
// store keeps, so export → import → export is lossless.

#include "render/render.hpp"
#include "render/transfer_fields.hpp"

namespace mailroom::render::detail {

namespace {

using Json = nlohmann::ordered_json;

} // namespace

Json encode_wake_record(const mail::WakeTargetRecord& record)
{
  const mail::WakeTarget& t = record.target;
  Json j;
  j["kind"] = "wake_target";
  j["mailbox"] = t.mailbox;
  put_text(j, "target", t.target);
  put_text(j, "host", t.set_from.host);
  j["uid"] = t.set_from.uid;
  put_text(j, "socket", t.socket);
  j["set_at"] = format_rfc3339(t.set_at);
  j["hook_at"] = time_value(record.hook_at);
  return j;
}

Json encode_wake_record(const mail::WakeRecord& record)
{
  const mail::WakeRow& w = record.row;
  Json j;
  j["kind"] = "wake";
  j["recipient"] = w.key.recipient;
  j["message_id"] = w.key.message;
  put_text(j, "target", w.key.target);
  j["attempt"] = w.key.attempt;
  j["outcome"] = std::string(mail::to_string(w.outcome));
  put_text(j, "reason", w.reason);
  put_text(j, "host", record.host.host);
  j["uid"] = record.host.uid;
  put_text(j, "socket", record.socket);
  j["created_at"] = format_rfc3339(w.created_at);
  j["due_at"] = format_rfc3339(w.due_at);
  j["claimed_at"] = time_value(w.claimed_at);
  j["updated_at"] = format_rfc3339(w.updated_at);
  j["combined"] = w.combined;
  j["combined_into"] = w.combined_into ? Json(*w.combined_into) : Json(nullptr);
  return j;
}

Result<mail::Record> decode_wake_target(const RecordFields& f)
{
  mail::WakeTargetRecord record;
  mail::WakeTarget& t = record.target;
  TRY_ASSIGN(t.mailbox, f.text("mailbox"));
  TRY_ASSIGN(t.target, f.text("target"));
  TRY_ASSIGN(t.set_from.host, f.text("host"));
  TRY_ASSIGN(t.set_from.uid, f.integer("uid"));
  TRY_ASSIGN(t.socket, f.text("socket"));
  TRY_ASSIGN(t.set_at, f.time("set_at"));
  TRY_ASSIGN(record.hook_at, f.optional_time("hook_at"));
  return mail::Record(std::move(record));
}

Result<mail::Record> decode_wake(const RecordFields& f)
{
  mail::WakeRecord record;
  mail::WakeRow& w = record.row;
  TRY_ASSIGN(w.key.recipient, f.text("recipient"));
  TRY_ASSIGN(w.key.message, f.text("message_id"));
  TRY_ASSIGN(w.key.target, f.text("target"));
  TRY_ASSIGN(w.key.attempt, f.integer("attempt"));
  TRY_ASSIGN(const std::string outcome, f.text("outcome"));
  const auto parsed = mail::parse_wake_outcome(outcome);
  if (!parsed) {
    return f.wrong("outcome", "pending, sent, failed, deferred, combined, skipped or unreachable");
  }
  w.outcome = *parsed;
  TRY_ASSIGN(w.reason, f.text("reason"));
  TRY_ASSIGN(record.host.host, f.text("host"));
  TRY_ASSIGN(record.host.uid, f.integer("uid"));
  TRY_ASSIGN(record.socket, f.text("socket"));
  TRY_ASSIGN(w.created_at, f.time("created_at"));
  TRY_ASSIGN(w.due_at, f.time("due_at"));
  TRY_ASSIGN(w.claimed_at, f.optional_time("claimed_at"));
  TRY_ASSIGN(w.updated_at, f.time("updated_at"));
  TRY_ASSIGN(w.combined, f.integer("combined"));
  TRY_ASSIGN(w.combined_into, f.optional_text("combined_into"));
  return mail::Record(std::move(record));
}

} // namespace mailroom::render::detail
