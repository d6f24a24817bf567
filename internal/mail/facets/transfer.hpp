#pragma once

// The transfer facet: export, import and purge (mail/transfer.hpp has the record types;
// docs/export-format.md the format).

#include "base/result.hpp"
#include "mail/transfer.hpp"

namespace mailroom::mail {

class Transfer {
public:
  // Every record of the store (or those since `since`), in export order, to `sink`.
  virtual Result<void> export_records(const ExportRequest& request, const RecordSink& sink) = 0;
  // Stores every record `source` gives, all or nothing, in one transaction: a record identical to
  // one stored is skipped; a mailbox already registered is left as it is; a delivery or key needs
  // its message in the store or earlier in the source. Errors (nothing stored): conflict (the same
  // identity with other content, naming the fields), usage (a delivery or key of an unknown
  // message), the source's own error (a malformed line), store errors.
  virtual Result<ImportReport> import_records(RecordSource& source) = 0;
  // Deletes the messages whose every delivery was archived more than request.older_than ago, and
  // those that expired more than request.older_than ago, with their deliveries (or only counts
  // them, with dry_run). Idempotency keys stay: a key whose message was purged still refuses a
  // second send (send: conflict). One transaction.
  virtual Result<PurgeReport> purge(const PurgeRequest& request) = 0;

protected:
  ~Transfer() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
