#pragma once

// The environment the operations of a server see (`mailroom mcp`, `mailroom serve`): the server's
// own, without the variables that belong to one invocation of a command and would otherwise apply
// to every call the server answers (contract Round 4, "Surfaces": one definition, used by both).

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "util/environment.hpp"

namespace mailroom::ops {

// $MAILROOM_IDEMPOTENCY_KEY would make every send of the server a replay of the first;
// $TRACEPARENT would put every call's message in the trace the server was started in.
inline constexpr std::array<std::string_view, 2> k_masked_server_variables = {"MAILROOM_IDEMPOTENCY_KEY",
                                                                              "TRACEPARENT"};

class ServerEnvironment final : public util::Environment {
public:
  explicit ServerEnvironment(const util::Environment& inner) : m_inner(inner) {}
  // Nullopt for a masked variable; the server's value for any other.
  std::optional<std::string> get(std::string_view name) const override;
  std::string cwd() const override { return m_inner.cwd(); }

private:
  const util::Environment& m_inner;
};

} // namespace mailroom::ops
