// mailroom fail: a recipient reports that a request failed; its sender gets a reply of type
// `failed` and the delivery's request_state becomes failed (contract "The life of a request").

#include "respond_support.hpp"

namespace mailroom::cli {

void register_fail(CLI::App& command, Invocation& inv)
{
  register_respond(command, inv, mail::RequestVerb::fail);
  command.footer("Examples:\n  mailroom fail mr-a1b2c3 --reason \"the build server is down\"\n"
                 "  mailroom fail \"$MAILROOM_ID\" --reason \"tests failed\"   # in a watch handler");
}

} // namespace mailroom::cli
