#include "server_environment.hpp"

#include <algorithm>

namespace mailroom::ops {

std::optional<std::string> ServerEnvironment::get(std::string_view name) const
{
  if (std::find(k_masked_server_variables.begin(), k_masked_server_variables.end(), name) !=
      k_masked_server_variables.end()) {
    return std::nullopt;
  }
  return m_inner.get(name);
}

} // namespace mailroom::ops
