#pragma once

// What a send says about its message type (contract "Round 4: decisions after review", Types): a
// type neither built in nor declared under [types.NAME], and far from every known one (a near one
// is refused by mail::TypeRegistry::resolve), is sent with the notice `unknown_type` naming the
// built-in type its writer most likely meant. Decided here once; the CLI prints it on stderr and in
// its --json result, MCP and HTTP in `warnings[]`.

#include <optional>
#include <string>
#include <string_view>

#include "mail/policy.hpp"
#include "session.hpp"

namespace mailroom::ops {

inline constexpr std::string_view k_unknown_type = "unknown_type";

// The notice for a message of type `type`, or nullopt when the type is built in or declared.
std::optional<Notice> unknown_type_notice(const mail::MailPolicy& policy, std::string_view type);

// The `type` argument's description (MCP tools, HTTP API): the built-in types a sender may choose,
// those that expect a reply first, from mail::builtin_types().
std::string type_argument_description();

} // namespace mailroom::ops
