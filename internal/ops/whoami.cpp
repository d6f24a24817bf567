#include "whoami.hpp"

#include "render/json.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

WhoamiResult whoami(const Session& session)
{
  WhoamiResult result{session.me, {}};
  for (const std::string& name : session.policy.types.names()) {
    auto type = session.policy.types.resolve(name);
    if (type.ok()) {
      result.types.push_back(std::move(*type));
    }
  }
  return result;
}

nlohmann::json to_json(const WhoamiResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["identity"] = text::json_text(result.me.name);
  doc["types"] = nlohmann::json::array();
  for (const mail::MessageType& type : result.types) {
    doc["types"].push_back({{"name", type.name}, {"expects_reply", type.expects_reply}});
  }
  return doc;
}

nlohmann::json whoami_output_schema()
{
  using namespace schema;
  return document({{"identity", string()},
                   {"types", array_of(object({{"name", string()}, {"expects_reply", boolean()}}))}});
}

} // namespace mailroom::ops
