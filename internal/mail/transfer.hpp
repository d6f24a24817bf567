#pragma once

// Records of export and import (contract "Keeping and moving mail"): every field a store keeps,
// so export → import → export is lossless between any two stores. The JSON Lines form is in
// render/transfer.hpp; docs/export-format.md describes it.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/result.hpp"
#include "mail/duration.hpp"
#include "mail/message.hpp"

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
  DeliveryStatus status;                      // recipient, kind, times, ack state (stored), acted_by
  std::optional<UnixMillis> next_attempt_at;  // the sweep's schedule
  std::int64_t handler_attempts = 0;          // watch's failed attempts
  std::optional<UnixMillis> retry_at;         // watch's next try
  std::optional<UnixMillis> set_aside_at;     // watch gave up
};

struct KeyRecord {
  Mailbox sender;
  std::string key;
  std::string fingerprint;
  MessageId message;
  UnixMillis created_at = 0;
};

using Record = std::variant<MailboxRecord, MessageRecord, DeliveryRecord, KeyRecord>;

struct ExportRequest {
  std::optional<UnixMillis> since; // messages (and their deliveries) created at or after
};

// Receives records in export order: mailboxes, then each message followed by its deliveries,
// then keys.
using RecordSink = std::function<Result<void>(const Record&)>;

struct ImportReport {
  std::int64_t added = 0;
  std::int64_t skipped = 0; // identical to what was stored
};

struct PurgeRequest {
  Millis older_than = 0;
  bool dry_run = false;
};

struct PurgeReport {
  std::int64_t messages = 0;
  bool dry_run = false;
};

} // namespace mailroom::mail
