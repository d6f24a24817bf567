#pragma once

// Which messages filtered `archive` takes (gc's `gc mail archive --to/--all-recipients` filters,
// gascity PR 2595; contract "Gas City, round 4"): the content half of the rule, the same for every
// store. Whose deliveries, read or unread, and how many are the operation's (ops/archive_matching.hpp).

#include <optional>
#include <string>

#include "mail/message.hpp"

namespace mailroom::mail {

struct ArchiveFilter {
  std::optional<Mailbox> from;                 // exactly this sender
  std::optional<std::string> subject_prefix;   // the subject starts with it (ASCII case ignored)
  std::optional<std::string> subject_contains; // the subject contains it (ASCII case ignored)
  bool empty_body = false;                     // only messages whose body is empty

  // gc refuses a filtered archive without one of these, so that a bare --to cannot archive a
  // whole mailbox by accident.
  bool has_content_filter() const { return from || subject_prefix || subject_contains; }

  // Whether `message` passes every filter that is set. Its body may be a preview: only its size
  // (Message::body_bytes) is looked at.
  bool matches(const Message& message) const;
};

} // namespace mailroom::mail
