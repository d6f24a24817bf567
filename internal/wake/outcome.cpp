#include "wake/outcome.hpp"

namespace mailroom::wake {

std::string_view to_string(Outcome outcome)
{
  switch (outcome) {
  case Outcome::sent:
    return "sent";
  case Outcome::failed:
    return "failed";
  case Outcome::not_agent:
    return "not_agent";
  case Outcome::not_idle:
    return "not_idle";
  case Outcome::no_pane:
    return "no_pane";
  }
  return "failed";
}

} // namespace mailroom::wake
