#include "support.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "render/json.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

Error usage_error(std::string message, std::string hint)
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

Result<void> write_text(Context& ctx, const text::DisplayText& text)
{
  return ctx.out.out(text.view());
}

Result<void> write_data(Context& ctx, std::string_view bytes)
{
  return ctx.out.out(bytes);
}

Result<void> write_json(Context& ctx, const nlohmann::json& doc)
{
  return ctx.out.out(render::dump_json(doc));
}

Result<void> require_ids(const std::vector<std::string>& ids)
{
  if (ids.empty()) {
    return usage_error("missing message ID");
  }
  return {};
}

Result<std::string> read_body_file(const std::string& path, std::size_t cap)
{
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return usage_error(fmt::format("cannot read body file \"{}\": {}", path, std::strerror(errno)));
  }
  std::string text;
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > cap) {
      return usage_error(fmt::format("body file \"{}\" is larger than the {} byte limit", path, cap));
    }
  }
  if (in.bad()) {
    return usage_error(fmt::format("cannot read body file \"{}\"", path));
  }
  return text;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator)
{
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += separator;
    }
    out += parts[i];
  }
  return out;
}

text::DisplayText bold(const Context& ctx, const text::DisplayText& text)
{
  return ctx.color ? text::styled(text, text::Style::bold) : text;
}

void report_error(Output& out, std::string_view command, const Error& error, bool json)
{
  if (json) {
    out.err(render::dump_json(render::error_to_json(error)));
    return;
  }
  const std::string prefix = command.empty() ? std::string("mailroom") : fmt::format("mailroom {}", command);
  // Messages quote user input, which may hold terminal escapes and be of any length: each line
  // goes through the gate, capped (text::k_error_line_cap_bytes).
  const text::Limit line{text::k_error_line_cap_bytes - prefix.size() - 2};
  std::string text =
      fmt::format("{}: {}\n", prefix, text::sanitize(error.message, text::Sink::terminal_line, line));
  if (error.code == ErrorCode::ambiguous_id && !error.suggestions.empty()) {
    // The candidates, so the next try can be typed (at most 5 named).
    constexpr std::size_t k_shown = 5;
    std::vector<std::string> shown;
    for (std::size_t i = 0; i < error.suggestions.size() && i < k_shown; ++i) {
      shown.push_back(text::sanitize(error.suggestions[i], text::Sink::terminal_line, line));
    }
    const std::size_t more = error.suggestions.size() - shown.size();
    text += fmt::format("candidates: {}{}\n", join(shown, ", "),
                        more > 0 ? fmt::format(" and {} more", more) : "");
  }
  if (!error.hint.empty()) {
    text += fmt::format("hint: {}\n", text::sanitize(error.hint, text::Sink::terminal_line, line));
  } else if (!error.suggestions.empty()) {
    std::vector<std::string> quoted;
    for (const auto& s : error.suggestions) {
      quoted.push_back(fmt::format("\"{}\"", text::sanitize(s, text::Sink::terminal_line)));
    }
    text += fmt::format("hint: did you mean {}?\n", join(quoted, " or "));
  }
  out.err(text);
}

void warn(Context& ctx, std::string_view code, std::string_view message)
{
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["warning"] = {{"code", std::string(code)}, {"message", std::string(message)}};
    ctx.out.err(render::dump_json(doc));
    return;
  }
  ctx.out.err(fmt::format("mailroom {}: warning: {}\n", ctx.command, text::sanitize_line(message)));
}

Result<mail::Mailbox> inbox_target(Context& ctx, const std::optional<std::string>& mailbox)
{
  if (!mailbox || *mailbox == ctx.me.name) {
    return ctx.me.name;
  }
  ctx.presence.reset(); // a view of another mailbox is not something its owner did
  if (!mail::is_valid_mailbox(*mailbox)) {
    TRY(mail::parse_address(*mailbox));
    return usage_error(fmt::format("\"{}\" is not a mailbox", *mailbox),
                       "name one mailbox, e.g. mayor or rig/mayor");
  }
  return *mailbox;
}

mail::Message as_read(mail::Message message)
{
  if (message.state) {
    message.state->read = true;
  }
  return message;
}

} // namespace mailroom::cli
