#include "types.hpp"

#include <fmt/format.h>

#include "mail/request.hpp"
#include "mail/types.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

std::optional<Notice> unknown_type_notice(const mail::MailPolicy& policy, std::string_view type)
{
  if (policy.types.is_declared(type)) {
    return std::nullopt;
  }
  const std::string closest = mail::closest_builtin_type(type);
  const auto resolved = policy.types.resolve(closest);
  const bool expects_reply = resolved.ok() && resolved->expects_reply;
  return Notice{std::string(k_unknown_type),
                fmt::format("type \"{}\" is neither built in nor declared under [types.{}]: sent as a "
                            "type that expects no reply; did you mean {}{}?",
                            text::cap_for_echo(std::string(type)), text::cap_for_echo(std::string(type)),
                            closest, expects_reply ? " (expects a reply)" : "")};
}

std::string type_argument_description()
{
  std::vector<std::string> reply;
  std::vector<std::string> no_reply;
  for (const mail::MessageType& type : mail::builtin_types()) {
    if (mail::is_request_notice(type.name)) {
      continue; // input_required, declined, failed, canceled: sent by ask, decline, fail, cancel
    }
    (type.expects_reply ? reply : no_reply).push_back(type.name);
  }
  return fmt::format("the message type (default message). A reply is expected for {}; none for {}. "
                     "Any other type is sent with warning unknown_type",
                     text::join(reply, ", "), text::join(no_reply, ", "));
}

} // namespace mailroom::ops
