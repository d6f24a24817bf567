#include "beads/rows.hpp"

#include <fmt/format.h>

namespace mailroom::providers::beads::detail {

std::string join_names(const std::vector<mail::Mailbox>& names)
{
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) {
      out.push_back('\n');
    }
    out += name;
  }
  return out;
}

std::vector<mail::Mailbox> split_names(std::string_view joined)
{
  std::vector<mail::Mailbox> out;
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

mail::Message message_from_row(const db::Statement& row, int first)
{
  mail::Message m;
  m.id = row.get<std::string>(first);
  m.from = row.get<std::string>(first + 1);
  m.to = split_names(row.get<std::string>(first + 2));
  m.cc = split_names(row.get<std::string>(first + 3));
  m.subject = row.get<std::string>(first + 4);
  m.body = row.get<std::string>(first + 5);
  m.created_at = row.get<std::int64_t>(first + 6);
  m.thread_id = row.get<std::string>(first + 7);
  m.reply_to = row.get<std::optional<std::string>>(first + 8);
  m.priority = static_cast<mail::Priority>(row.get<int>(first + 9));
  m.type = row.get<std::string>(first + 10);
  m.read = row.get<bool>(first + 11);
  m.archived = row.get<bool>(first + 12);
  return m;
}

Result<std::vector<mail::Message>> collect_messages(db::Statement& statement, int first)
{
  std::vector<mail::Message> out;
  while (true) {
    TRY_ASSIGN(const bool has_row, statement.step());
    if (!has_row) {
      break;
    }
    out.push_back(message_from_row(statement, first));
  }
  return out;
}

Error not_found(std::string_view id)
{
  return make_error(ErrorCode::not_found, fmt::format("message \"{}\" not found", id));
}

Error not_recipient(std::string_view mailbox, std::string_view id)
{
  return make_error(ErrorCode::not_recipient,
                          fmt::format("mailbox \"{}\" is not a recipient of {}", mailbox, id));
}

} // namespace mailroom::providers::beads::detail
