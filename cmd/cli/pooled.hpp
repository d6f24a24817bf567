#pragma once

// The connections of a server's pool (`mcp`, `serve`): each one a store opened for the caller's
// settings, its identity guarded as a command's first use guards it.

#include "base/result.hpp"
#include "context.hpp"
#include "mail/settings.hpp"
#include "ops/connection_pool.hpp"

namespace mailroom::cli {

// What the pool calls to open a connection: the provider for `settings` (opened as ctx.me), refused
// when the caller's identity is not allowed (ops::guard_identity, never registering it). Errors:
// `settings`' own error (at every call), the store's, the identity guard's.
ops::ConnectionPool::Open pooled_connections(Context& ctx, Result<mail::ProviderSettings> settings);

} // namespace mailroom::cli
