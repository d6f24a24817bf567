#include "sqlstore/rows.hpp"

#include <fmt/format.h>

#include "mail/ack.hpp"
#include "mail/limits.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

std::string join_names(const std::vector<std::string>& names)
{
  return text::join(names, "\n");
}

std::vector<std::string> split_names(std::string_view joined)
{
  std::vector<std::string> out;
  while (!joined.empty()) {
    const auto newline = joined.find('\n');
    out.emplace_back(joined.substr(0, newline));
    if (newline == std::string_view::npos) {
      break;
    }
    joined.remove_prefix(newline + 1);
  }
  return out;
}

mail::Message message_from_row(const db::Statement& row, mail::UnixMillis now)
{
  mail::Message m;
  m.id = row.get<std::string>("id");
  m.from = row.get<std::string>("sender");
  m.to = split_names(row.get<std::string>("to_list"));
  m.cc = split_names(row.get<std::string>("cc_list"));
  m.addressed_to = split_names(row.get<std::string>("addressed_to"));
  m.subject = row.get<std::string>("subject");
  m.body = row.get<std::string>("body");
  const std::int64_t body_length = row.get<std::int64_t>("body_length");
  m.body_complete = static_cast<std::int64_t>(m.body.size()) >= body_length;
  if (!m.body_complete) {
    m.cut_body_bytes = static_cast<std::size_t>(body_length);
  }
  m.created_at = row.get<std::int64_t>("created_at");
  m.thread_id = row.get<std::string>("thread_id");
  m.reply_to = row.get<std::optional<std::string>>("reply_to");
  m.priority = static_cast<mail::Priority>(row.get<int>("priority"));
  m.type = row.get<std::string>("type");
  m.trace.trace_id = row.get<std::string>("trace_id");
  m.trace.span_id = row.get<std::string>("span_id");
  m.trace.parent_span_id = row.get<std::optional<std::string>>("parent_span_id");
  m.expires_at = row.get<std::optional<std::int64_t>>("expires_at");
  m.expired = m.expires_at && *m.expires_at <= now;
  m.sender_uid = row.get<std::int64_t>("sender_uid");
  m.sender_host = row.get<std::string>("sender_host");
  if (m.addressed_to.empty()) {
    // Stores written before addresses were kept: the recipients are what was written.
    m.addressed_to = m.to;
    m.addressed_to.insert(m.addressed_to.end(), m.cc.begin(), m.cc.end());
  }
  if (row.get<bool>("has_delivery")) {
    mail::DeliveryState state;
    state.read = !row.is_null(row.column_index("read_at"));
    state.archived = !row.is_null(row.column_index("archived_at"));
    const auto stored = mail::parse_ack_state(row.get<std::string>("ack_state"));
    state.ack_state = mail::effective_ack_state(stored.value_or(mail::AckState::none), m.expired);
    state.attempts = row.get<std::int64_t>("attempts");
    state.last_attempt_at = row.get<std::optional<std::int64_t>>("last_attempt_at");
    m.state = state;
  }
  return m;
}

Result<std::vector<mail::Message>> collect_messages(db::Statement& statement, mail::UnixMillis now)
{
  std::vector<mail::Message> out;
  TRY(statement.for_each_row([&](const db::Statement& row) { out.push_back(message_from_row(row, now)); }));
  return out;
}

std::string_view preview_of(std::string_view body)
{
  return body.substr(0, mail::preview_length(body, mail::k_preview_bytes));
}

std::int64_t body_bound(std::optional<std::size_t> body_bytes)
{
  return body_bytes ? static_cast<std::int64_t>(*body_bytes)
                    : static_cast<std::int64_t>(mail::k_max_body_bytes) * 4;
}

Error not_found(std::string_view id)
{
  return make_error(ErrorCode::not_found, fmt::format("message \"{}\" not found", text::cap_for_echo(id)));
}

Error not_recipient(std::string_view mailbox, std::string_view id)
{
  return make_error(ErrorCode::not_recipient,
                    fmt::format("mailbox \"{}\" is not a recipient of {}", mailbox, text::cap_for_echo(id)));
}

} // namespace mailroom::providers::sqlstore
