// team: every mailbox's presence and what it owes, is owed and holds, counted in one read
// snapshot at the store's clock (the server's, on PostgreSQL); mail::finish_team decides each
// state and the order. A view: nothing is written, presence included.

#include <map>
#include <utility>

#include "mail/team.hpp"
#include "sqlstore/store.hpp"

namespace mailroom::providers::sqlstore {

Result<mail::TeamResult> SqlStore::team()
{
  const HealthQueries& sql = m_sql.health;
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Transaction snapshot, db::Transaction::begin(*reader, db::TransactionKind::read));

  std::map<mail::Mailbox, mail::TeamMember> members;
  TRY_ASSIGN(db::Statement * names, reader->cached(sql.team_mailboxes));
  TRY(names->bind(mail::k_human));
  TRY(names->for_each_row([&](const db::Statement& row) {
    mail::TeamMember member;
    member.mailbox = row.get<std::string>("name");
    member.retired_at = row.get<std::optional<std::int64_t>>("retired_at");
    member.last_seen_at = row.get<std::optional<std::int64_t>>("last_seen");
    if (const auto via = row.get<std::optional<std::string>>("seen_via")) {
      member.seen_via = mail::parse_seen_via(*via);
    }
    members.emplace(member.mailbox, std::move(member));
  }));

  TRY_ASSIGN(db::Statement * received, reader->cached(sql.team_received));
  TRY(received->bind(now, mail::overdue_before(now, m_policy.stale_after)));
  TRY(received->for_each_row([&](const db::Statement& row) {
    const auto found = members.find(row.get<std::string>("recipient"));
    if (found == members.end()) {
      return; // mail to a name never registered (recipients = "any"): not a team member
    }
    found->second.unread = row.get<std::int64_t>("unread");
    found->second.owed_count = row.get<std::int64_t>("owed_count");
    found->second.overdue_count = row.get<std::int64_t>("overdue_count");
    found->second.set_aside_count = row.get<std::int64_t>("set_aside_count");
  }));

  TRY_ASSIGN(db::Statement * sent, reader->cached(sql.team_sent));
  TRY(sent->bind(now));
  TRY(sent->for_each_row([&](const db::Statement& row) {
    const auto found = members.find(row.get<std::string>("sender"));
    if (found != members.end()) {
      found->second.awaiting_others_count = row.get<std::int64_t>("awaiting_others_count");
    }
  }));

  TRY_ASSIGN(db::Statement * claims, reader->cached(sql.team_claims));
  TRY(claims->bind(now));
  TRY(claims->for_each_row([&](const db::Statement& row) {
    const auto found = members.find(row.get<std::string>("recipient"));
    if (found != members.end()) {
      mail::TeamClaim claim;
      claim.id = row.get<std::string>("id");
      claim.subject = row.get<std::string>("subject");
      claim.claimed_by = row.get<std::string>("claimed_by");
      claim.lease_left_ms = row.get<std::int64_t>("claim_until") - now;
      found->second.claims.push_back(std::move(claim));
    }
  }));
  TRY(snapshot.commit());

  std::vector<mail::TeamMember> list;
  list.reserve(members.size());
  for (auto& [name, member] : members) {
    list.push_back(std::move(member));
  }
  return mail::finish_team(std::move(list), now, m_policy.presence_after, m_policy.stale_after);
}

} // namespace mailroom::providers::sqlstore
