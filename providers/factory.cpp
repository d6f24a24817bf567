#include "factory.hpp"

#include <fmt/format.h>

namespace mailroom::providers {

mail::Result<std::unique_ptr<mail::Provider>> make_provider(const mail::ProviderSettings& settings,
                                                             const mail::Clock& /*clock*/,
                                                             const std::string& /*identity*/)
{
  return mail::make_error(mail::ErrorCode::unsupported,
                          fmt::format("provider \"{}\" is not available in this build", settings.kind));
}

} // namespace mailroom::providers
