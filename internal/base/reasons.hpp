#pragma once

// Error::reason values that layers which cannot see each other share (a store engine sets one, the
// mail rules read it).

#include <string_view>

namespace mailroom {

// A store server that did not answer: not running, refusing connections, starting up or shutting
// down, or unreachable over the network. It may come back by itself (mail/retry.hpp).
inline constexpr std::string_view k_reason_unreachable = "server_unreachable";

} // namespace mailroom
