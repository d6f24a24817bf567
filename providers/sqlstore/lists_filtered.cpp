// Lists with filters, the sent view and search (everything list() does not serve from the plain
// inbox statements). Each list runs in one read transaction, so the page, its total and the
// summaries agree.

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "mail/search_query.hpp"
#include "sqlstore/rows.hpp"
#include "sqlstore/search_syntax.hpp"
#include "sqlstore/store.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

namespace {

// The values bound to a list statement's shared parameters (queries.hpp: ListQueries). Bound
// without a copy: they live as long as the list runs.
struct ListParameters {
  std::optional<mail::Mailbox> viewer; // ?1: the list's mailbox; nullopt for a search of every mailbox
  mail::UnixMillis now = 0;
  std::int64_t body_bytes = 0;
  std::int64_t limit = k_unbounded;
  std::optional<std::string> types;
  std::optional<std::int64_t> priority;
  bool unread = false;
  bool archived = false;
  std::optional<std::string> match;
};

// "\nA\nB\n": a type matches when "\n<type>\n" occurs in it (type names hold no newline).
std::optional<std::string> framed(const std::vector<std::string>& types)
{
  if (types.empty()) {
    return std::nullopt;
  }
  std::string out = "\n";
  for (const std::string& type : types) {
    out += type;
    out += '\n';
  }
  return out;
}

Result<void> bind_list(db::Statement& statement, const mail::ListQuery& query, const ListParameters& p)
{
  const mail::Filters& f = query.filters;
  return statement.bind(p.viewer, p.now, p.body_bytes, p.limit, f.from, f.to, p.types, p.priority, f.since,
                        f.until, p.unread, p.archived, f.thread, p.match);
}

// FTS5's messages for a match expression it cannot parse (they vary between SQLite versions).
bool is_match_syntax_error(const std::string& message)
{
  return text::starts_with(message, "fts5:") || text::starts_with(message, "unterminated string") ||
         text::starts_with(message, "malformed MATCH") || text::starts_with(message, "unknown special query");
}

// A store error from the search statement that is the engine rejecting the match expression: the
// query's fault, not the store's (rendering should make this impossible; the reason is kept).
Error search_error(Error error)
{
  if (error.code == ErrorCode::store_error && is_match_syntax_error(error.message)) {
    error.code = ErrorCode::usage;
    error.message = fmt::format("bad search query: {}", error.message.substr(0, error.message.find(": \"")));
  }
  return error;
}

struct Hit {
  double score = 0;
  std::int64_t seq = 0;
};

} // namespace

Result<mail::ListResult> SqlStore::list_filtered(const mail::ListQuery& query)
{
  const mail::Filters& f = query.filters;
  ListParameters p;
  if (query.box != mail::Box::search || !query.every_mailbox) {
    p.viewer = query.mailbox;
  }
  TRY_ASSIGN(p.now, this->now());
  p.body_bytes = body_bound(query.body_bytes);
  p.limit = query.limit ? static_cast<std::int64_t>(*query.limit) : k_unbounded;
  p.types = framed(f.types);
  if (f.priority) {
    p.priority = static_cast<std::int64_t>(*f.priority);
  }
  p.archived = f.archived;
  // The inbox shows unread mail unless --all; its archive shows everything unless --unread.
  p.unread = query.box == mail::Box::inbox && !f.archived ? (f.unread || !query.include_read) : f.unread;
  if (query.box == mail::Box::search) {
    TRY_ASSIGN(const mail::SearchNode tree, mail::parse_search_query(query.search));
    p.match = render_search(tree, *m_sql.lists.search_syntax);
  }

  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Transaction snapshot, db::Transaction::begin(*reader, db::TransactionKind::read));
  mail::ListResult result;
  if (query.box == mail::Box::search) {
    std::vector<Hit> hits;
    {
      const std::optional<std::string_view> unfiltered = m_engine->unfiltered_search();
      const bool use_unfiltered = unfiltered && !f.any() && !query.every_mailbox;
      TRY_ASSIGN(db::Statement * select,
                 reader->cached(use_unfiltered ? *unfiltered : m_sql.lists.search_hits));
      TRY(bind_list(*select, query, p));
      // A common word matches thousands of rows: name the columns once, on the first row.
      int score_column = -1;
      int seq_column = -1;
      auto scanned = select->for_each_row([&](const db::Statement& row) {
        if (score_column < 0) {
          score_column = row.column_index("score");
          seq_column = row.column_index("seq");
        }
        hits.push_back(Hit{row.get<double>(score_column), row.get<std::int64_t>(seq_column)});
      });
      if (!scanned.ok()) {
        return search_error(std::move(scanned).error());
      }
    }
    result.total = static_cast<std::int64_t>(hits.size());
    // Best match first (bm25: lower is better), then the newer message.
    const auto better = [](const Hit& a, const Hit& b) {
      return a.score != b.score ? a.score < b.score : a.seq > b.seq;
    };
    const std::size_t shown = std::min(hits.size(), query.limit.value_or(hits.size()));
    // The bead store yields matches oldest first, and a common word scores the same in most of them:
    // newest first, a tie with the worst of the best so far is rejected at once instead of
    // replacing it (BENCHMARKS.md, "Measurements behind the code").
    std::reverse(hits.begin(), hits.end());
    std::partial_sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(shown), hits.end(), better);
    TRY_ASSIGN(db::Statement * load, reader->cached(m_sql.lists.message_by_seq));
    for (std::size_t i = 0; i < shown; ++i) {
      TRY(load->bind(hits[i].seq, p.viewer, p.body_bytes));
      TRY(load->for_each_row([&](const db::Statement& row) {
        result.messages.push_back(mail::ListedMessage{message_from_row(row, p.now), std::nullopt});
      }));
    }
    TRY(snapshot.commit());
    return result;
  }

  const bool sent = query.box == mail::Box::sent;
  const std::string_view list_sql = sent         ? m_sql.lists.sent
                                    : f.archived ? m_sql.lists.inbox_archived
                                                 : m_sql.lists.inbox;
  const std::string_view count_sql = sent         ? m_sql.lists.sent_count
                                     : f.archived ? m_sql.lists.inbox_archived_count
                                                  : m_sql.lists.inbox_count;
  std::vector<std::int64_t> seqs;
  {
    TRY_ASSIGN(db::Statement * select, reader->cached(list_sql));
    TRY(bind_list(*select, query, p));
    TRY(select->for_each_row([&](const db::Statement& row) {
      result.messages.push_back(mail::ListedMessage{message_from_row(row, p.now), std::nullopt});
      seqs.push_back(row.get<std::int64_t>("seq"));
    }));
  }
  {
    TRY_ASSIGN(db::Statement * count, reader->cached(count_sql));
    TRY(bind_list(*count, query, p));
    TRY_ASSIGN(const bool has_row, count->step());
    if (has_row) {
      db::ResetGuard reset(*count);
      result.total = count->get<std::int64_t>("total");
    }
  }
  if (sent) {
    TRY_ASSIGN(db::Statement * summarise, reader->cached(m_sql.lists.sent_summary));
    for (std::size_t i = 0; i < result.messages.size(); ++i) {
      mail::ListedMessage& listed = result.messages[i];
      TRY(summarise->bind(seqs[i], p.now));
      TRY_ASSIGN(const bool has_row, summarise->step());
      if (!has_row) {
        continue;
      }
      db::ResetGuard reset(*summarise);
      const std::int64_t awaiting = summarise->get<std::int64_t>("awaiting");
      const std::int64_t escalated = summarise->get<std::int64_t>("escalated");
      mail::DeliverySummary summary;
      summary.recipients = summarise->get<std::int64_t>("recipients");
      summary.read = summarise->get<std::int64_t>("read");
      summary.archived = summarise->get<std::int64_t>("archived");
      summary.acked = summarise->get<std::int64_t>("acked");
      // Expiry turns what still waits for an ack into a failure (mail::effective_ack_state).
      summary.awaiting_ack = listed.message.expired ? 0 : awaiting;
      summary.failed = escalated + (listed.message.expired ? awaiting : 0);
      summary.claimed = summarise->get<std::int64_t>("claimed");
      summary.set_aside = summarise->get<std::int64_t>("set_aside");
      summary.handler_failed = summarise->get<std::int64_t>("handler_failed");
      listed.summary = summary;
    }
  } else {
    TRY_ASSIGN(db::Statement * unread, reader->cached(m_sql.core.count_unread));
    TRY(unread->bind(query.mailbox, p.now));
    TRY_ASSIGN(const bool has_row, unread->step());
    if (has_row) {
      db::ResetGuard reset(*unread);
      result.unread = unread->get<std::int64_t>("unread");
    }
  }
  TRY(snapshot.commit());
  return result;
}

} // namespace mailroom::providers::sqlstore
