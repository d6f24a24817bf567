#include "support.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "ops/errors.hpp"
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
  out.err(ops::error_to_text(command, error));
}

void print_notice(Context& ctx, const ops::Notice& notice)
{
  if (notice.code == "acting_for" && !ctx.json) {
    ctx.out.err(fmt::format("mailroom {}: {}\n", ctx.command, text::sanitize_line(notice.message)));
    return;
  }
  warn(ctx, notice.code, notice.message);
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
  return ops::listing_target(ctx.session, mailbox);
}

} // namespace mailroom::cli
