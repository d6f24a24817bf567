#pragma once

// A tool's answer as a tools/call result (contract "MCP server", "Results"; "MCP, round 2"):
// structuredContent is the CLI's --json object, the content block its text rendering through the
// output gate, framed as data; the whole result, as written, is at most 48 KiB (k_max_result_bytes).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "mcp/tools.hpp"
#include "ops/session.hpp"

namespace mailroom::mcp {

// The success result for `out`: the acting mailbox named, the operations' notices as "warnings"
// (and one line each in the text), the content block framed, and a list that does not fit cut at
// the last whole item that does. What still does not fit (one item too large,
// which shaped bodies make rare) has its first content block cut, and failing that is an error.
// `digest` (mcp --digest, ops::digest_line) is a second text block after the first, in success and
// error results alike, never in structuredContent; the bound counts it.
json finish(const ToolDef& tool, const ToolEnv& env, const std::vector<ops::Notice>& notices, ToolOutput out,
            const std::optional<std::string>& digest = std::nullopt);

// An isError result: the contract's error object as structuredContent, its lines (reminder tags
// removed: they may repeat an argument) as content.
json failure(const ToolDef& tool, const Error& error,
             const std::optional<std::string>& digest = std::nullopt);

// The size of `message` as the server writes it (render::dump_json's escapes included).
std::size_t written_size(const json& message);

} // namespace mailroom::mcp
