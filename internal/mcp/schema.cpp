#include "mcp/schema.hpp"

#include <algorithm>

namespace mailroom::mcp::schema {

json from_operation(const json& operation, const std::vector<std::string>& added_required)
{
  // JSON Schema 2020-12: the items of "required" are unique.
  json required = json::array();
  const auto require = [&required](const json& key) {
    if (std::find(required.begin(), required.end(), key) == required.end()) {
      required.push_back(key);
    }
  };
  for (const json& key : operation.value("required", json::array())) {
    require(key);
  }
  for (const std::string& key : added_required) {
    require(key);
  }
  require("mailbox");
  return json{{"type", "object"}, {"required", std::move(required)}};
}

json count()
{
  return json{{"type", "integer"}};
}

} // namespace mailroom::mcp::schema
