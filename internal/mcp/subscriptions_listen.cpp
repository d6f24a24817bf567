// The 2026-07-28 side of the subscriptions (subscriptions.hpp): the notification frames and the
// acknowledgement of pending listens.

#include <algorithm>
#include <optional>

#include "mcp/subscriptions.hpp"

namespace mailroom::mcp {

json updated_notification(const std::string& uri, const json& listen)
{
  json params{{"uri", uri}};
  if (!listen.is_null()) {
    params["_meta"] = json{{std::string(k_subscription_id_key), listen}};
  }
  return json{
      {"jsonrpc", "2.0"}, {"method", "notifications/resources/updated"}, {"params", std::move(params)}};
}

json acknowledged_notification(const json& listen, const std::vector<std::string>& uris)
{
  json honoured = json::object();
  if (!uris.empty()) {
    honoured["resourceSubscriptions"] = uris;
  }
  return json{{"jsonrpc", "2.0"},
              {"method", "notifications/subscriptions/acknowledged"},
              {"params", json{{"_meta", json{{std::string(k_subscription_id_key), listen}}},
                              {"notifications", std::move(honoured)}}}};
}

void Subscriptions::acknowledge_pending()
{
  std::vector<std::pair<std::string, std::vector<std::string>>> pending;
  {
    std::lock_guard lock(m_mutex);
    for (auto& [key, listen] : m_listens) {
      if (!listen.open) {
        pending.emplace_back(key, std::move(listen.asked));
        listen.asked.clear();
      }
    }
  }
  for (auto& [key, asked] : pending) {
    std::sort(asked.begin(), asked.end());
    asked.erase(std::unique(asked.begin(), asked.end()), asked.end());
    std::vector<std::pair<std::string, std::optional<ResourceRead>>> found;
    std::optional<ResourceRead> trouble;
    for (const std::string& uri : asked) {
      const auto ref = parse_resource_uri(uri);
      if (!ref) {
        continue; // names no resource: not honoured
      }
      bool watched = false;
      {
        std::lock_guard lock(m_mutex);
        watched = m_watched.contains(uri);
      }
      if (watched) {
        found.emplace_back(uri, std::nullopt);
        continue;
      }
      ResourceRead read = read_resource(m_env, *ref);
      if (store_away(read)) {
        trouble = std::move(read);
        break;
      }
      if (read.outcome == ResourceRead::Outcome::found) {
        found.emplace_back(uri, std::move(read));
      }
    }
    std::lock_guard lock(m_mutex);
    const auto listen = m_listens.find(key);
    if (listen == m_listens.end() || m_stopping || !m_write) {
      continue; // cancelled meanwhile: nothing is written for it
    }
    if (trouble) {
      // The store did not answer: the listen is refused (its one answer), not half acknowledged.
      const json& error = trouble->structured.is_object() ? trouble->structured["error"] : json();
      m_write(json{{"jsonrpc", "2.0"},
                   {"id", listen->second.id},
                   {"error", json{{"code", -32603},
                                  {"message", error.is_object() ? error.value("message", "store error")
                                                                : std::string("store error")},
                                  {"data", trouble->structured}}}});
      m_listens.erase(listen);
      continue;
    }
    std::vector<std::string> honoured;
    for (auto& [uri, read] : found) {
      auto it = m_watched.find(uri);
      if (it == m_watched.end()) {
        if (!read || m_watched.size() >= m_limits.max_resources) {
          continue; // gone since, or over the limit: not honoured
        }
        const ResourceRef ref = *parse_resource_uri(uri);
        it = m_watched
                 .emplace(uri, Watched{ref,
                                       watched_view(ref, m_env.me.name, read->structured),
                                       read_digest(*read),
                                       false,
                                       {},
                                       false})
                 .first;
      }
      // No read again: this thread read it, and a change committed since has an event it has not
      // read yet.
      it->second.listens.insert(key);
      honoured.push_back(uri);
    }
    m_write(acknowledged_notification(listen->second.id, honoured));
    listen->second.open = true;
  }
}

} // namespace mailroom::mcp
