#include "factory.hpp"

#include <fmt/format.h>

#include "beads/bead_store.hpp"
#include "exec/exec_provider.hpp"

namespace mailroom::providers {

Result<std::unique_ptr<mail::Provider>> make_provider(const mail::ProviderSettings& settings,
                                                             const mail::Clock& clock,
                                                             const std::string& identity)
{
  if (settings.kind == "beads") {
    return beads::open_bead_store(settings.store, clock);
  }
  if (settings.kind == "exec") {
    return exec::open_exec_provider(settings.exec, identity);
  }
  return make_error(ErrorCode::usage,
                          fmt::format("unknown provider \"{}\"; expected \"beads\" or \"exec:<command>\"",
                                      settings.kind));
}

} // namespace mailroom::providers
