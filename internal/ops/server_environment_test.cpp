// The servers' masked environment (ops/server_environment.hpp).

#include <doctest/doctest.h>

#include "ops/server_environment.hpp"

namespace mailroom::ops {

TEST_CASE("a server's operations never see the invocation's idempotency key or trace parent")
{
  const util::MapEnvironment outer(
      {{"MAILROOM_IDEMPOTENCY_KEY", "k1"},
       {"TRACEPARENT", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
       {"TZ", "Europe/Berlin"}},
      "/work");
  const ServerEnvironment env(outer);
  CHECK(env.get("MAILROOM_IDEMPOTENCY_KEY") == std::nullopt);
  CHECK(env.get("TRACEPARENT") == std::nullopt);
  CHECK(env.get("TZ") == std::optional<std::string>("Europe/Berlin"));
  CHECK(env.get("UNSET") == std::nullopt);
  CHECK(env.cwd() == "/work");
}

} // namespace mailroom::ops
