#include "sqlstore/rows.hpp"

#include <fmt/format.h>

#include "mail/ack.hpp"
#include "mail/limits.hpp"
#include "mail/message_fields.hpp"
#include "mail/request.hpp"
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

std::optional<mail::RequestState> request_state_of(const db::Statement& row, bool expired)
{
  const auto stored = row.get<std::optional<std::string>>("request_state");
  if (!stored) {
    return std::nullopt;
  }
  // A state a newer mailroom wrote reads as the open state it most likely continues.
  const auto state = mail::parse_request_state(*stored).value_or(mail::RequestState::working);
  return mail::effective_request_state(state, expired);
}

mail::Message message_from_row(const db::Statement& row, mail::UnixMillis now)
{
  mail::Message m;
  mail::for_each_message_field(
      [&](auto kind, const mail::MessageField& field, auto& value) {
        constexpr mail::FieldKind k = decltype(kind)::value;
        if constexpr (k == mail::FieldKind::text || k == mail::FieldKind::name || k == mail::FieldKind::hex) {
          value = row.get<std::string>(field.column);
        } else if constexpr (k == mail::FieldKind::optional_text || k == mail::FieldKind::optional_hex) {
          value = row.get<std::optional<std::string>>(field.column);
        } else if constexpr (k == mail::FieldKind::names) {
          value = split_names(row.get<std::string>(field.column));
        } else if constexpr (k == mail::FieldKind::body) {
          // The engine's cut of the body (a preview, or whole) and the whole body's length.
          value = row.get<std::string>(field.column);
          const std::int64_t body_length = row.get<std::int64_t>("body_length");
          m.body_complete = static_cast<std::int64_t>(value.size()) >= body_length;
          if (!m.body_complete) {
            m.cut_body_bytes = static_cast<std::size_t>(body_length);
          }
        } else if constexpr (k == mail::FieldKind::millis || k == mail::FieldKind::integer) {
          value = row.get<std::int64_t>(field.column);
        } else if constexpr (k == mail::FieldKind::optional_millis) {
          value = row.get<std::optional<std::int64_t>>(field.column);
        } else if constexpr (k == mail::FieldKind::priority) {
          value = static_cast<mail::Priority>(row.get<int>(field.column));
        } else {
          static_assert(mail::k_unhandled_field_kind<k>);
        }
      },
      m);
  // A recipient's expiry is its delivery's own (pushed back while it waited for input, or the
  // moment its request was canceled); anyone else's is the message's.
  const bool has_delivery = row.get<bool>("has_delivery");
  const std::optional<mail::UnixMillis> expires_at =
      has_delivery ? row.get<std::optional<std::int64_t>>("delivery_expires_at") : m.expires_at;
  m.expired = expires_at && *expires_at <= now;
  if (m.addressed_to.empty()) {
    // Stores written before addresses were kept: the recipients are what was written.
    m.addressed_to = m.to;
    m.addressed_to.insert(m.addressed_to.end(), m.cc.begin(), m.cc.end());
  }
  m.schedule = row.get<std::optional<std::string>>("schedule");
  m.slot = row.get<std::optional<std::int64_t>>("slot");
  if (has_delivery) {
    mail::DeliveryState state;
    state.read = !row.is_null(row.column_index("read_at"));
    state.archived = !row.is_null(row.column_index("archived_at"));
    const auto stored = mail::parse_ack_state(row.get<std::string>("ack_state"));
    state.ack_state = mail::effective_ack_state(stored.value_or(mail::AckState::none), m.expired);
    state.attempts = row.get<std::int64_t>("attempts");
    state.last_attempt_at = row.get<std::optional<std::int64_t>>("last_attempt_at");
    state.request_state = request_state_of(row, m.expired);
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
