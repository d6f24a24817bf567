// The life of a request's JSON arguments, shared by the MCP tools and the HTTP routes.

#include <doctest/doctest.h>

#include "ops/arguments.hpp"
#include "ops/request_arguments.hpp"

namespace mailroom::ops {

namespace {

using nlohmann::json;

std::string refusal(const json& schema, const json& given)
{
  const Result<void> checked = args::validate(schema, given);
  return checked.ok() ? std::string() : checked.error().message;
}

} // namespace

TEST_CASE("ops request arguments: each verb's keys, an ask's question required, the surface's own added")
{
  CHECK(refusal(cancel_arguments(), json{{"reason", "moot"}, {"to", "bob"}, {"for", "alice"}}).empty());
  CHECK(refusal(cancel_arguments(), json{{"question", "?"}}) == "unknown argument \"question\"");
  CHECK(refusal(respond_arguments(mail::RequestVerb::decline), json{{"reason", "busy"}, {"for", "bob"}})
            .empty());
  CHECK(refusal(respond_arguments(mail::RequestVerb::fail), json{{"to", "bob"}}) ==
        "unknown argument \"to\"");
  CHECK(refusal(respond_arguments(mail::RequestVerb::ask), json{{"for", "bob"}}) ==
        "missing argument \"question\"");
  CHECK(refusal(respond_arguments(mail::RequestVerb::ask), json{{"reason", "x"}, {"question", "?"}}) ==
        "unknown argument \"reason\"");
  // MCP adds the id (HTTP has it in the path).
  const json with_id = respond_arguments(mail::RequestVerb::ask, json{{"id", args::string("id")}}, {"id"});
  CHECK(refusal(with_id, json{{"question", "?"}}) == "missing argument \"id\"");
  CHECK(refusal(with_id, json{{"id", "mr-1"}, {"question", "?"}}).empty());
}

TEST_CASE("ops request arguments: read into the operations' requests")
{
  const CancelRequest cancel = cancel_request_of("mr-1", json{{"reason", "moot"}, {"to", "bob"}});
  CHECK(cancel.id == "mr-1");
  CHECK(cancel.reason == "moot");
  CHECK(cancel.to.value_or("") == "bob");
  CHECK_FALSE(cancel.for_name);
  const RespondRequest ask =
      respond_request_of(mail::RequestVerb::ask, "mr-2", json{{"question", "which?"}, {"for", "bob"}});
  CHECK((ask.verb == mail::RequestVerb::ask));
  CHECK(ask.id == "mr-2");
  CHECK(ask.text == "which?");
  CHECK(ask.for_name.value_or("") == "bob");
  CHECK(respond_request_of(mail::RequestVerb::decline, "mr-3", json::object()).text.empty());
}

} // namespace mailroom::ops
