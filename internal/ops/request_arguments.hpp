#pragma once

// The JSON arguments of the life of a request's verbs on the surfaces that take JSON (the MCP
// `cancel`, `decline`, `ask` and `fail` tools, the HTTP API's POST messages/{id}/{cancel|decline|
// ask|fail}): their schemas, written once, and their reading into the operations' requests. The
// request's id is the surface's own (a tool argument, a path segment), so it is passed in.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/request.hpp"
#include "ops/requests.hpp"

namespace mailroom::ops {

// cancel's ops::args input schema: reason, to, for, plus `added` properties (required: `required`).
nlohmann::json cancel_arguments(const nlohmann::json& added = nlohmann::json::object(),
                                std::vector<std::string> required = {});
// A verb's: reason (decline, fail) or question (ask, required), for, plus `added`.
nlohmann::json respond_arguments(mail::RequestVerb verb,
                                 const nlohmann::json& added = nlohmann::json::object(),
                                 std::vector<std::string> required = {});

// The requests of arguments that passed ops::args::validate against those schemas.
CancelRequest cancel_request_of(std::string id, const nlohmann::json& args);
RespondRequest respond_request_of(mail::RequestVerb verb, std::string id, const nlohmann::json& args);

} // namespace mailroom::ops
