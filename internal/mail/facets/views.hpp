#pragma once

// The views facet: the operator's views of any message (status, trace, recent traces) and full
// ids from typed prefixes. A store with it also answers Provider::list for Box::sent and
// Box::search and with filters; a store without it (Facets::views null) answers those
// unsupported and takes every id as typed.

#include <cstddef>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

class Views {
public:
  // The full id `typed` stands for: itself when it exists, else the one id it is a unique prefix
  // of (at least k_min_id_prefix characters after the prefix's "mr-"). Errors: not_found;
  // ambiguous_id with the candidates in Error::suggestions.
  virtual Result<MessageId> resolve_id(const std::string& typed) = 0;
  // Every delivery record of `id`, in to-then-cc order, and the message itself (sender uid/host).
  virtual Result<StatusResult> status(const MessageId& id) = 0;
  // The messages of a trace (a trace id, or the trace of message id), oldest first.
  virtual Result<TraceResult> trace(const Mailbox& viewer, const std::string& trace_or_message_id) = 0;
  // The `limit` traces started most recently, newest first (ties by trace id). Changes nothing.
  virtual Result<std::vector<TraceSummary>> recent_traces(std::size_t limit) = 0;
  // Every mailbox's deliveries that are not archived (unread ones only unless
  // query.include_read), of messages from query.from when set, oldest first: what filtered
  // archive --all-recipients chooses from (ops/archive_matching.hpp). Changes nothing.
  virtual Result<std::vector<OpenDelivery>> open_deliveries(const OpenDeliveriesQuery& query) = 0;

protected:
  ~Views() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
