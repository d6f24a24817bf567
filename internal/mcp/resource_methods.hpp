#pragma once

// The resource methods of `mailroom mcp`, for the protocol layer (protocol.cpp): resources/list,
// resources/templates/list and resources/read in both eras; resources/subscribe and
// resources/unsubscribe in the legacy eras (2025-06-18, 2025-11-25); subscriptions/listen in
// 2026-07-28. The era's other method is -32601, as any method it does not have.
//
// Errors: a URI that names no resource, or a message or thread that does not exist, is "Resource
// not found" with data {"uri"} (-32002 legacy, -32602 modern). A read the operation refuses for
// another reason is -32602 when the request asked for something it may not have (usage,
// ambiguous_id: an id prefix of several messages) and -32603 otherwise (no_identity, a store
// error), with message the error's line and data {"uri","error"} (the CLI's error object).
// subscriptions/listen answers nothing until its notifications/cancelled (the watcher writes its
// acknowledgement, subscriptions.hpp); malformed params, no identity or too many listens are its
// one error answer.

#include <memory>
#include <string_view>

#include "mcp/server.hpp"
#include "mcp/subscriptions.hpp"
#include "mcp/tools.hpp"

namespace mailroom::mcp {

class ResourceMethods {
public:
  explicit ResourceMethods(const ToolEnv& env);

  // True for the methods above.
  static bool handles(std::string_view method);
  // True for those that read the store (they run on the request pool; listen never does).
  static bool runs_on_pool(std::string_view method);
  // True for those whose modern result has ttlMs and cacheScope (0, "private").
  static bool cacheable(std::string_view method);

  // Answers `request` (a method handles() accepts) in its era.
  Reply request(const Incoming& request, bool is_modern);

  Subscriptions& subscriptions() { return m_subscriptions; }

private:
  Reply read(const Incoming& request, bool is_modern);
  Reply subscribe(const Incoming& request, bool is_modern);
  Reply listen(const Incoming& request);

  const ToolEnv& m_env;
  Subscriptions m_subscriptions;
};

} // namespace mailroom::mcp
