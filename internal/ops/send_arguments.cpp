#include "send_arguments.hpp"

#include "ops/arguments.hpp"
#include "ops/types.hpp"

namespace mailroom::ops {

nlohmann::json sending_properties()
{
  return nlohmann::json{{"subject", args::string("the subject (default: the body's first line)")},
                        {"body", args::string("the message text")},
                        {"type", args::string(type_argument_description())},
                        {"priority", args::enumeration("priority (default normal)",
                                                       {"urgent", "high", "normal", "low", "backlog"})},
                        {"ttl", args::string("expire after this long, e.g. 1h")},
                        {"ack", args::boolean("ask the recipients to acknowledge it")},
                        {"idempotency_key", args::string("a retry with the same key sends nothing twice")}};
}

Sending sending_of(const nlohmann::json& given)
{
  Sending sending;
  sending.priority = args::arg_string(given, "priority");
  sending.type = args::arg_string(given, "type");
  sending.ack = args::arg_flag(given, "ack");
  sending.idempotency_key = args::arg_string(given, "idempotency_key");
  sending.ttl = args::arg_string(given, "ttl");
  return sending;
}

} // namespace mailroom::ops
