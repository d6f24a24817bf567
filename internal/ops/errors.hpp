#pragma once

// How a failed operation is shown, decided once for every surface: the contract's error object
// (render::error_to_json, the one writer; the MCP server's structuredContent of an isError result)
// and the one or two lines the CLI prints on stderr (the MCP result's text content).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "render/json.hpp"

namespace mailroom::ops {

// {"schema_version":1,"ok":false,"error":{"code","message","exit_code",…}}.
using render::error_to_json;

// "mailroom <command>: <message>\n" (or "mailroom: …" without a command) and "hint: …\n" when
// the error has a hint or suggestions; each line through the output gate, capped.
std::string error_to_text(std::string_view command, const Error& error);

// `error` as a workspace under `[compat] gc = true` words it: an unknown message also says
// beadmail's `bead not found`, which gc's own tests and habits look for (gascity mail.txtar). The
// code, and so the exit code, stays mailroom's. Unchanged without compat.
Error in_gc_words(bool compat_gc, Error error);

// A usage error (exit 2) with an optional hint.
Error usage_error(std::string message, std::string hint = {});

// The JSON Schema of error_to_json's object.
nlohmann::json error_output_schema();

} // namespace mailroom::ops
