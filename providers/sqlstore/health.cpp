// peers: the health of a mailbox's channels, read from peer_pairs and the partial indexes of
// pending and escalated deliveries (one query); mail::finish_peers decides stale, each peer's
// state and the order.

#include <algorithm>

#include <fmt/format.h>

#include "mail/health.hpp"
#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

Result<mail::PeersResult> SqlStore::peers(const mail::Mailbox& me, const std::optional<mail::Mailbox>& peer)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.health.select_peers));
  TRY(select->bind(me, now, peer, mail::overdue_before(now, m_policy.stale_after)));
  std::vector<mail::PeerHealth> found;
  TRY(select->for_each_row([&](const db::Statement& row) {
    mail::PeerHealth health;
    health.peer = row.get<std::string>("peer");
    health.last_sent_at = row.get<std::optional<std::int64_t>>("last_sent_at");
    health.last_acked_at = row.get<std::optional<std::int64_t>>("last_acked_at");
    health.last_inbound_at = row.get<std::optional<std::int64_t>>("last_inbound_at");
    health.last_seen_at = row.get<std::optional<std::int64_t>>("last_seen_at");
    health.pending_count = row.get<std::int64_t>("pending_count");
    if (const auto oldest = row.get<std::optional<std::int64_t>>("oldest_pending_at")) {
      health.oldest_pending_age_ms = std::max<mail::Millis>(0, now - *oldest);
    }
    health.escalated_count = row.get<std::int64_t>("escalated_count");
    health.owes_overdue = row.get<std::int64_t>("peer_owes_overdue") != 0;
    found.push_back(std::move(health));
  }));
  if (peer && found.empty()) {
    return make_error(ErrorCode::not_found,
                      fmt::format("no mail between {} and \"{}\"", me, text::cap_for_echo(*peer)),
                      "peers lists the mailboxes you sent mail to or received mail from");
  }
  return mail::finish_peers(me, std::move(found), m_policy.stale_after, now, m_policy.presence_after);
}

Result<mail::PairsResult> SqlStore::pairs()
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.health.select_pairs));
  TRY(select->bind(now));
  std::vector<mail::PairHealth> found;
  TRY(select->for_each_row([&](const db::Statement& row) {
    mail::PairHealth pair;
    pair.sender = row.get<std::string>("sender");
    pair.recipient = row.get<std::string>("recipient");
    pair.last_sent_at = row.get<std::optional<std::int64_t>>("last_sent_at");
    pair.last_acked_at = row.get<std::optional<std::int64_t>>("last_acked_at");
    pair.pending_count = row.get<std::int64_t>("pending_count");
    if (const auto oldest = row.get<std::optional<std::int64_t>>("oldest_pending_at")) {
      pair.oldest_pending_age_ms = std::max<mail::Millis>(0, now - *oldest);
    }
    pair.escalated_count = row.get<std::int64_t>("escalated_count");
    pair.failed_count = pair.escalated_count + row.get<std::int64_t>("expired_count");
    found.push_back(std::move(pair));
  }));
  return mail::finish_pairs(std::move(found), m_policy.stale_after);
}

} // namespace mailroom::providers::sqlstore
