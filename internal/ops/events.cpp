#include "events.hpp"

#include <algorithm>

#include "render/json.hpp"
#include "schema.hpp"

namespace mailroom::ops {

Result<EventsResult> events(Session& session, const EventsRequest& request)
{
  if (request.after_seq && *request.after_seq < 0) {
    return make_error(ErrorCode::usage, "an event seq is never negative");
  }
  if (request.limit == 0) {
    return make_error(ErrorCode::usage, "an events limit must be at least 1");
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::EventLog * log, mail::need(provider->facets().events, "events"));
  EventsResult result;
  if (!request.after_seq) {
    TRY_ASSIGN(const mail::EventsPage now, log->events(0, 1));
    result.oldest_kept = now.oldest_kept;
    result.last_seq = now.newest;
    return result;
  }
  const std::int64_t after = *request.after_seq;
  TRY_ASSIGN(mail::EventsPage page, log->events(after, std::min(request.limit, mail::k_max_events_page)));
  result.oldest_kept = page.oldest_kept;
  if (after > page.newest) {
    // A seq this store never reached (another store's, or this one restored from an older copy):
    // waiting for it would hide every event until the store got that far. Reset, and go on from
    // the newest.
    result.reset = true;
    result.last_seq = page.newest;
    return result;
  }
  result.reset = after < page.oldest_kept - 1;
  result.events = std::move(page.events);
  result.last_seq = result.events.empty() ? after : result.events.back().seq;
  return result;
}

Result<std::unique_ptr<mail::ChangeSignal>> change_signal(Session& session)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  return mail::change_signal(*provider);
}

nlohmann::json to_json(const mail::Event& event)
{
  return nlohmann::json{
      {"seq", event.seq},       {"at", event.at},           {"type", mail::to_string(event.type)},
      {"id", event.message_id}, {"mailbox", event.mailbox}, {"actor", event.actor}};
}

nlohmann::json to_json(const EventsResult& result)
{
  nlohmann::json doc = render::json_document();
  nlohmann::json list = nlohmann::json::array();
  for (const mail::Event& event : result.events) {
    list.push_back(to_json(event));
  }
  doc["events"] = std::move(list);
  doc["reset"] = result.reset;
  doc["oldest_kept"] = result.oldest_kept;
  doc["last_seq"] = result.last_seq;
  return doc;
}

nlohmann::json event_output_schema()
{
  using namespace schema;
  return object({{"seq", integer()},
                 {"at", integer()},
                 {"type", string()},
                 {"id", string()},
                 {"mailbox", string()},
                 {"actor", string()}});
}

nlohmann::json events_output_schema()
{
  using namespace schema;
  return document({{"events", array_of(event_output_schema())},
                   {"reset", boolean()},
                   {"oldest_kept", integer()},
                   {"last_seq", integer()}});
}

} // namespace mailroom::ops
