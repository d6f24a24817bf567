#pragma once

// Records of export and import (contract "Keeping and moving mail"): every field a store keeps,
// so export → import → export is lossless between any two stores. The JSON Lines form is in
// render/transfer.hpp; docs/export-format.md describes it.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/result.hpp"
#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "mail/schedules.hpp"
#include "mail/wake.hpp"

namespace mailroom::mail {

struct MailboxRecord {
  Mailbox name;
  UnixMillis registered_at = 0;
  std::optional<UnixMillis> retired_at;
  std::optional<UnixMillis> last_seen;
};

struct MessageRecord {
  Message message; // state unset
};

struct DeliveryRecord {
  MessageId message;
  // Every field of mail/delivery_fields.hpp as stored: the ack and request states never expired,
  // no claim. An export from before the delivery's own expires_at was kept has none (own_expiry
  // false), which then is its message's.
  DeliveryStatus status;
  bool own_expiry = true;
};

struct KeyRecord {
  Mailbox sender;
  std::string key;
  std::string fingerprint;
  std::optional<MessageId> message; // nullopt once its message was purged (the key still blocks)
  UnixMillis created_at = 0;
};

// A schedule with every column the store keeps: its `last` holds only the slot and kind of its last
// firing (the firings are records of their own), `firings` is unset.
struct ScheduleRecord {
  Schedule schedule;
};

// One firing row of the schedule with id `schedule`.
struct FiringRecord {
  std::string schedule;
  Firing firing; // request_states unset
};

// A mailbox's wake target with the last time its hook ran (mail/wake.hpp).
struct WakeTargetRecord {
  WakeTarget target;
  std::optional<UnixMillis> hook_at;
};

// One row of the wake ledger, with the host, uid and socket of the target it was recorded for.
struct WakeRecord {
  WakeRow row;
  WakeHost host;
  std::string socket;
};

using Record = std::variant<MailboxRecord, MessageRecord, DeliveryRecord, KeyRecord, ScheduleRecord,
                            FiringRecord, WakeTargetRecord, WakeRecord>;

struct ExportRequest {
  std::optional<UnixMillis> since; // messages (and their deliveries) created at or after
};

// Receives records in export order: mailboxes (by name), then each message (oldest first, ties in
// the order the store received them) followed by its deliveries (in stored order: to, then cc),
// then keys (by sender and key), then schedules (by owner and name) and their firings (by
// schedule, oldest first), then wake targets (by mailbox) and wake ledger rows (by recipient,
// message, target, attempt).
using RecordSink = std::function<Result<void>(const Record&)>;

// Hands an import its records one at a time, so a large file is never held in memory. An error
// (a malformed line) ends the import with nothing stored.
class RecordSource {
public:
  virtual ~RecordSource() = default;
  // The next record, or nullopt after the last.
  virtual Result<std::optional<Record>> next() = 0;
};

// A RecordSource over records held in memory (tests, small imports).
class VectorSource final : public RecordSource {
public:
  explicit VectorSource(const std::vector<Record>& records) : m_records(records) {}
  Result<std::optional<Record>> next() override
  {
    if (m_next >= m_records.size()) {
      return std::optional<Record>();
    }
    return std::optional<Record>(m_records[m_next++]);
  }

private:
  const std::vector<Record>& m_records;
  std::size_t m_next = 0;
};

// Checks what a store may not hold: names that are not mailboxes, an empty id, a type name that
// is not one, malformed trace ids, sizes over the caps, a delivery kind other than to/cc, a
// stored ack state of `failed` (never stored), negative counts. Errors: usage naming the field.
Result<void> check_record(const Record& record);

// The fields in which two records with the same identity differ ("subject", "read_at"), empty
// when they are identical: what an import compares with what is stored. A message's identity is
// its id, a delivery's its message and recipient, a key's its sender and key.
std::vector<std::string> differences(const MessageRecord& a, const MessageRecord& b);
std::vector<std::string> differences(const DeliveryRecord& a, const DeliveryRecord& b);
std::vector<std::string> differences(const KeyRecord& a, const KeyRecord& b);
// A schedule's identity is its id, a firing's its schedule, slot and kind (transfer_schedules.cpp).
std::vector<std::string> differences(const ScheduleRecord& a, const ScheduleRecord& b);
std::vector<std::string> differences(const FiringRecord& a, const FiringRecord& b);
// A wake target's identity is its mailbox, a wake's its key (transfer_wake.cpp).
std::vector<std::string> differences(const WakeTargetRecord& a, const WakeTargetRecord& b);
std::vector<std::string> differences(const WakeRecord& a, const WakeRecord& b);
// check_record of the wake kinds (transfer_wake.cpp).
Result<void> check_wake_target_record(const WakeTargetRecord& record);
Result<void> check_wake_record(const WakeRecord& record);
// check_record of the schedule kinds (transfer_schedules.cpp).
Result<void> check_schedule_record(const ScheduleRecord& record);
Result<void> check_firing_record(const FiringRecord& record);

struct ImportReport {
  std::int64_t added = 0;    // records stored
  std::int64_t skipped = 0;  // identical to what was stored (and mailboxes already registered)
  std::int64_t messages = 0; // messages stored (of `added`)
};

struct PurgeRequest {
  Millis older_than = 0;
  bool dry_run = false;
};

struct PurgeReport {
  std::int64_t messages = 0;   // messages deleted (or that would be, with dry_run)
  std::int64_t deliveries = 0; // their delivery records
  bool dry_run = false;
};

} // namespace mailroom::mail
