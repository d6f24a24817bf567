// The life of a request beyond its reply (mail/facets/requests.hpp): cancel, and decline, ask and
// fail, which are replies. mail/request.hpp decides; each is one write transaction here.

#include "mail/request.hpp"

#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"

namespace mailroom::providers::sqlstore {

Result<mail::SendReceipt> SqlStore::respond(const mail::ReplyRequest& request)
{
  if (!request.verb) {
    return make_error(ErrorCode::usage, "an answer to a request needs its verb (decline, ask or fail)");
  }
  return reply(request); // compose_reply checks the verb and plans the move; insert applies it
}

Result<mail::CancelResult> SqlStore::cancel(const mail::CancelRequest& request)
{
  return write([&](db::Connection& c) -> Result<mail::CancelResult> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    std::int64_t seq = 0;
    TRY_ASSIGN(const mail::StatusResult status, status_on(c, request.id, now, seq));
    TRY_ASSIGN(const mail::CancelPlan plan, mail::plan_cancel(status, request));
    mail::CancelResult result;
    result.id = request.id;
    result.unchanged = plan.unchanged;
    const mail::Mailbox& by = request.acted_by.empty() ? request.sender : request.acted_by;
    std::vector<mail::EventDraft> events;
    TRY_ASSIGN(db::Statement * cancel, c.cached(m_sql.requests.cancel));
    for (const mail::Mailbox& recipient : plan.closed) {
      TRY(cancel->bind(seq, recipient, now));
      TRY_ASSIGN(const std::int64_t closed, cancel->exec());
      if (closed == 1) {
        result.canceled.push_back(recipient);
        events.push_back(mail::EventDraft{mail::EventType::request_state, request.id, recipient, by});
      }
    }
    TRY(record_events(c, now, events));
    if (!result.canceled.empty()) {
      TRY_ASSIGN(const mail::Composed notice,
                 mail::compose_cancel_notice(status.message, result.canceled, request.reason, m_policy,
                                             mail::Stamp{now, m_origin.uid, m_origin.host}));
      TRY(insert(c, notice));
      result.notice = notice.message.id;
    }
    return result;
  });
}

} // namespace mailroom::providers::sqlstore
