#include "pooled.hpp"

#include "ops/identity.hpp"

namespace mailroom::cli {

ops::ConnectionPool::Open pooled_connections(Context& ctx, Result<mail::ProviderSettings> settings)
{
  return [&ctx, settings = std::move(settings)]() -> Result<std::unique_ptr<mail::Provider>> {
    if (!settings.ok()) {
      return settings.error();
    }
    TRY_ASSIGN(std::unique_ptr<mail::Provider> provider, ctx.open_provider(*settings));
    TRY(ops::guard_identity(*provider, ctx.me, ctx.policy, false));
    return provider;
  };
}

} // namespace mailroom::cli
