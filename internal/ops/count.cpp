#include "count.hpp"

#include "acting.hpp"
#include "read_names.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

Result<CountResult> count(Session& session, const CountRequest& request)
{
  CountResult result;
  TRY_ASSIGN(result.mailbox, read_target(session, request.mailbox));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(result.counts, provider->count(result.mailbox));
  return result;
}

nlohmann::json to_json(const CountResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["mailbox"] = result.mailbox;
  doc["total"] = result.counts.total;
  doc["unread"] = result.counts.unread;
  return doc;
}

text::DisplayText to_text(const CountResult& result, const render::Style& /*style*/)
{
  return text::DisplayText::format("{} total, {} unread for {}\n", result.counts.total, result.counts.unread,
                                   text::sanitize_line(result.mailbox));
}

nlohmann::json count_output_schema()
{
  using namespace schema;
  return document({{"mailbox", string()}, {"total", integer()}, {"unread", integer()}});
}

} // namespace mailroom::ops
