// mailroom decline: a recipient refuses a request; its sender gets a reply of type `declined` and
// the delivery's request_state becomes rejected (contract "The life of a request").

#include "respond_support.hpp"

namespace mailroom::cli {

void register_decline(CLI::App& command, Invocation& inv)
{
  register_respond(command, inv, mail::RequestVerb::decline);
  command.footer("Examples:\n  mailroom decline mr-a1b2c3 --reason \"not my area\"\n"
                 "  mailroom decline --for worker-3 mr-a1b2c3");
}

} // namespace mailroom::cli
