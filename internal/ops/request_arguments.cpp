#include "request_arguments.hpp"

#include <utility>

#include "ops/arguments.hpp"

namespace mailroom::ops {

namespace {

// The key of a verb's text: what an ask asks, else why.
const char* verb_text_key(mail::RequestVerb verb)
{
  return verb == mail::RequestVerb::ask ? "question" : "reason";
}

} // namespace

nlohmann::json cancel_arguments(const nlohmann::json& added, std::vector<std::string> required)
{
  nlohmann::json properties{{"reason", args::string("why (the notice's body)")},
                            {"to", args::string("only this recipient's delivery")},
                            {"for", args::string("as this sender (an operator)")}};
  properties.update(added);
  return args::input(std::move(properties), std::move(required));
}

nlohmann::json respond_arguments(mail::RequestVerb verb, const nlohmann::json& added,
                                 std::vector<std::string> required)
{
  nlohmann::json properties = nlohmann::json::object();
  if (verb == mail::RequestVerb::ask) {
    properties["question"] = args::string("what its sender must answer first");
    properties["for"] = args::string("for this recipient (an operator)");
    required.emplace_back("question");
  } else {
    properties["reason"] = args::string("why (the notice's body)");
    properties["for"] = args::string("for this recipient (an operator)");
  }
  properties.update(added);
  return args::input(std::move(properties), std::move(required));
}

CancelRequest cancel_request_of(std::string id, const nlohmann::json& given)
{
  CancelRequest request;
  request.id = std::move(id);
  request.reason = args::arg_string(given, "reason").value_or("");
  request.to = args::arg_string(given, "to");
  request.for_name = args::arg_string(given, "for");
  return request;
}

RespondRequest respond_request_of(mail::RequestVerb verb, std::string id, const nlohmann::json& given)
{
  RespondRequest request;
  request.verb = verb;
  request.id = std::move(id);
  request.text = args::arg_string(given, verb_text_key(verb)).value_or("");
  request.for_name = args::arg_string(given, "for");
  return request;
}

} // namespace mailroom::ops
