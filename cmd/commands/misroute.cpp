#include "misroute.hpp"

#include "cli/support.hpp"
#include "ops/send_checks.hpp"

namespace mailroom::cli {

Result<void> refuse_unread_stdin(Context& ctx)
{
  if (ctx.in.offers_data(k_stdin_data_wait)) {
    return usage_error("standard input has data but -s alone is a complete message",
                       "add - (or --stdin) to send it as the body, or -m '' for none");
  }
  return {};
}

Result<void> check_recipients(Context& ctx, const std::vector<std::string>& to,
                              const std::vector<std::string>& cc)
{
  return ops::check_recipients(ctx.session, to, cc);
}

Result<void> check_reply(Context& ctx, const std::string& id, bool reply_all, bool confirmed)
{
  return ops::check_reply(ctx.session, id, reply_all, confirmed);
}

} // namespace mailroom::cli
