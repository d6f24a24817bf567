#include "mail/provider.hpp"

#include <fmt/format.h>

namespace mailroom::mail {

Error unsupported(std::string_view provider, std::string_view what)
{
  return make_error(ErrorCode::unsupported,
                    fmt::format("{} is not supported by the {} provider", what, provider));
}

Error missing_facet(std::string_view what)
{
  return make_error(ErrorCode::unsupported, fmt::format("{} is not supported by this provider", what));
}

Result<MessageId> resolve_id(Provider& provider, const std::string& typed)
{
  Views* views = provider.facets().views;
  if (views == nullptr) {
    return typed;
  }
  return views->resolve_id(typed);
}

Result<std::unique_ptr<ChangeSignal>> change_signal(Provider& provider)
{
  Signals* signals = provider.facets().signals;
  if (signals == nullptr) {
    return std::unique_ptr<ChangeSignal>();
  }
  return signals->change_signal();
}

Result<std::optional<Message>> Provider::take(const Actor& /*actor*/, const MessageId& /*id*/,
                                              const DeliverFn& /*deliver*/)
{
  return missing_facet("taking a message once (wait --read)");
}

} // namespace mailroom::mail
