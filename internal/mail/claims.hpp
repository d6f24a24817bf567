#pragma once

// Claims with leases, so several `watch` processes (on one host or several) never handle the same
// delivery at once (contract "Watching").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mail/message.hpp"

namespace mailroom::mail {

struct ClaimRequest {
  Mailbox mailbox;
  std::vector<std::string> types; // any of these; empty: any type
  std::optional<Mailbox> from;
  std::int64_t lease_ms = 5 * 60 * 1000;
  std::string watcher; // who claims, e.g. "host:pid"; recorded for operators
};

struct Claim {
  Message message;          // as the mailbox sees it
  Mailbox mailbox;
  std::string token;        // proves ownership on renew and finish
  std::int64_t attempts = 0; // handler attempts before this one
};

enum class ClaimOutcome { done, failed, released };

struct ClaimFinish {
  ClaimOutcome outcome = ClaimOutcome::done;
  std::int64_t retry_after_ms = 0; // failed: earliest next try
  std::int64_t max_attempts = 3;   // failed: set aside once attempts reach this
};

struct ClaimResult {
  std::int64_t attempts = 0; // handler attempts so far, this one included
  bool set_aside = false;    // failed for the last time: watch skips it until mark-unread
};

} // namespace mailroom::mail
