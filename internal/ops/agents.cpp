#include "agents.hpp"

#include "render/json.hpp"
#include "render/render.hpp"
#include "schema.hpp"

namespace mailroom::ops {

Result<AgentsResult> agents(Session& session, const AgentsRequest& /*request*/)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  AgentsResult result;
  TRY_ASSIGN(mail::Registry * registry, mail::need(provider->facets().registry, "agents"));
  TRY_ASSIGN(result.agents, registry->agents());
  TRY_ASSIGN(result.wakes, wake_views(session));
  result.now = session.clock.now();
  return result;
}

nlohmann::json to_json(const AgentsResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["agents"] = nlohmann::json::array();
  for (const auto& a : result.agents) {
    const nlohmann::json seen =
        a.last_seen ? nlohmann::json(render::format_rfc3339(*a.last_seen)) : nlohmann::json(nullptr);
    // `last_seen_at` is the name `peers` and `team` use; `last_seen` stays for the scripts that read it.
    doc["agents"].push_back({{"name", a.name},
                             {"registered_at", render::format_rfc3339(a.registered_at)},
                             {"last_seen", seen},
                             {"last_seen_at", seen},
                             {"unread", a.unread},
                             {"wake", wake_json(find_wake(result.wakes, a.name))}});
  }
  return doc;
}

text::DisplayText to_text(const AgentsResult& result, const render::Style& style)
{
  if (result.agents.empty()) {
    return text::DisplayText("No registered mailboxes\n");
  }
  return render::render_agents_table(result.agents, result.now, style) + wake_lines(result.wakes, result.now);
}

nlohmann::json agents_output_schema()
{
  using namespace schema;
  nlohmann::json agent = object({{"name", string()},
                                 {"registered_at", string()},
                                 {"last_seen", nullable(string())},
                                 {"last_seen_at", nullable(string())},
                                 {"unread", integer()},
                                 {"wake", wake_schema()}});
  return document({{"agents", array_of(std::move(agent))}});
}

} // namespace mailroom::ops
