// mailroom ask: a recipient needs input before it can answer a request; its sender gets the
// question (type input_required), the delivery waits in input_required with its TTL paused, and
// the sender's reply to the question moves it back to working (contract "The life of a request").

#include "respond_support.hpp"

namespace mailroom::cli {

void register_ask(CLI::App& command, Invocation& inv)
{
  register_respond(command, inv, mail::RequestVerb::ask);
  command.footer("The sender answers with: mailroom reply <question-id> <answer>\n"
                 "Examples:\n  mailroom ask mr-a1b2c3 \"which branch?\"\n"
                 "  mailroom ask \"$MAILROOM_ID\" \"staging or production?\"   # in a watch handler");
}

} // namespace mailroom::cli
