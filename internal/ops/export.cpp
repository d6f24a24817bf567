#include "transfer.hpp"

#include "mail/duration.hpp"
#include "render/transfer.hpp"
#include "text/conninfo.hpp"

namespace mailroom::ops {

namespace {

// Lines are written in blocks of about this size.
constexpr std::size_t k_flush_bytes = 1U << 20U;

} // namespace

Result<ExportResult> export_mail(Session& session, const ExportRequest& request, const ExportWrite& write)
{
  mail::ExportRequest query;
  if (request.since) {
    TRY_ASSIGN(query.since, mail::parse_time_or_age(*request.since, session.clock.now(), "--since"));
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  // Where the records came from, for the header: the store's path or URL, without a password.
  std::string buffer = render::encode_header({render::k_export_format_version, session.clock.now(),
                                              text::redact_conninfo(session.config.store_path.value)});
  TRY_ASSIGN(mail::Transfer * transfer, mail::need(provider->facets().transfer, "export"));
  ExportResult result;
  TRY(transfer->export_records(query, [&](const mail::Record& record) -> Result<void> {
    buffer += render::encode_record(record);
    ++result.records;
    if (buffer.size() >= k_flush_bytes) {
      TRY(write(buffer));
      buffer.clear();
    }
    return {};
  }));
  TRY(write(buffer));
  return result;
}

} // namespace mailroom::ops
