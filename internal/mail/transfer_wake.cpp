// The wake target and wake ledger records of export and import (mail/transfer.hpp): what a store
// may not hold, and which fields of two records with one identity differ.

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/ids.hpp"
#include "mail/transfer.hpp"
#include "mail/transfer_checks.hpp"
#include "text/strings.hpp"

namespace mailroom::mail {

using transfer_checks::compare_field;

Result<void> check_wake_target_record(const WakeTargetRecord& record)
{
  if (!is_valid_mailbox(record.target.mailbox)) {
    return transfer_checks::bad_field("wake_target", "mailbox", "is not a mailbox");
  }
  if (record.target.target.empty()) {
    return transfer_checks::bad_field("wake_target", "target", "is empty");
  }
  return {};
}

Result<void> check_wake_record(const WakeRecord& record)
{
  const WakeKey& key = record.row.key;
  if (!is_valid_mailbox(key.recipient)) {
    return transfer_checks::bad_field("wake", "recipient", "is not a mailbox");
  }
  if (!is_valid_id(key.message)) {
    return transfer_checks::bad_field(
        "wake", "message_id", fmt::format("is not an id: \"{}\"", text::cap_for_echo(key.message, 80)));
  }
  if (key.target.empty()) {
    return transfer_checks::bad_field("wake", "target", "is empty");
  }
  if (key.attempt < 0 || record.row.combined < 0) {
    return transfer_checks::bad_field("wake", key.attempt < 0 ? "attempt" : "combined", "is negative");
  }
  return {};
}

std::vector<std::string> differences(const WakeTargetRecord& a, const WakeTargetRecord& b)
{
  std::vector<std::string> out;
  compare_field(out, "target", a.target.target, b.target.target);
  compare_field(out, "host", a.target.set_from.host, b.target.set_from.host);
  compare_field(out, "uid", a.target.set_from.uid, b.target.set_from.uid);
  compare_field(out, "socket", a.target.socket, b.target.socket);
  compare_field(out, "set_at", a.target.set_at, b.target.set_at);
  compare_field(out, "hook_at", a.hook_at, b.hook_at);
  return out;
}

std::vector<std::string> differences(const WakeRecord& a, const WakeRecord& b)
{
  std::vector<std::string> out;
  compare_field(out, "outcome", a.row.outcome, b.row.outcome);
  compare_field(out, "reason", a.row.reason, b.row.reason);
  compare_field(out, "host", a.host.host, b.host.host);
  compare_field(out, "uid", a.host.uid, b.host.uid);
  compare_field(out, "socket", a.socket, b.socket);
  compare_field(out, "created_at", a.row.created_at, b.row.created_at);
  compare_field(out, "due_at", a.row.due_at, b.row.due_at);
  compare_field(out, "claimed_at", a.row.claimed_at, b.row.claimed_at);
  compare_field(out, "updated_at", a.row.updated_at, b.row.updated_at);
  compare_field(out, "combined", a.row.combined, b.row.combined);
  compare_field(out, "combined_into", a.row.combined_into, b.row.combined_into);
  return out;
}

} // namespace mailroom::mail
