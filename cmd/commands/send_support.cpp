#include "send_support.hpp"

#include <fmt/format.h>

#include "cli/support.hpp"
#include "mail/limits.hpp"

namespace mailroom::cli {

void add_body_options(CLI::App& command, BodySource& source)
{
  command.add_flag("--stdin", source.stdin_body, "read the body from standard input");
  command.add_option("--body-file", source.body_file, "read the body from this file")->type_name("PATH");
}

Result<std::optional<std::string>> read_body(Context& ctx, const BodySource& source,
                                             const std::optional<std::string>& inline_body)
{
  const bool dash = inline_body && *inline_body == "-";
  const int sources =
      (inline_body && !dash ? 1 : 0) + ((dash || source.stdin_body) ? 1 : 0) + (source.body_file ? 1 : 0);
  if (sources > 1 || (dash && source.stdin_body)) {
    return usage_error("give the body only once: as an argument, -m, --stdin (or -) or --body-file");
  }
  std::optional<std::string> body;
  if (dash || source.stdin_body) {
    TRY_ASSIGN(body, ctx.in.read_all(mail::k_max_body_bytes));
    if (body->empty()) {
      // Round 2's rule: an empty body from standard input is a usage error like an empty argument.
      return usage_error("the body from standard input is empty",
                         "give the body on standard input, or -m '' with -s for an empty body");
    }
  } else if (source.body_file) {
    TRY_ASSIGN(body, read_body_file(*source.body_file, mail::k_max_body_bytes));
  } else {
    body = inline_body;
  }
  if (body && body->size() > mail::k_max_body_bytes) {
    return usage_error(
        fmt::format("body is {} bytes; the limit is {}", body->size(), mail::k_max_body_bytes));
  }
  return body;
}

void add_priority_options(CLI::App& command, ops::Sending& sending)
{
  command.add_option("--priority", sending.priority, "urgent, high, normal, low, backlog or 0-4")
      ->type_name("LEVEL");
  command.add_flag("--urgent", sending.urgent, "same as --priority urgent");
}

} // namespace mailroom::cli
