#include "acting.hpp"

namespace mailroom::cli {

void add_for_option(CLI::App& command, std::optional<std::string>& name)
{
  command.add_option("--for", name, "act on NAME's delivery (an operator acting for a recipient)")
      ->type_name("NAME");
}

} // namespace mailroom::cli
