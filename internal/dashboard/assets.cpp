#include "dashboard/assets.hpp"

#include "dashboard/asset_table.hpp"

namespace mailroom::dashboard {

const Asset* find_asset(std::string_view path)
{
  // A dozen entries: a linear scan is all it needs.
  for (const AssetEntry& entry : asset_entries()) {
    if (entry.path == path) {
      return &entry.asset;
    }
  }
  return nullptr;
}

} // namespace mailroom::dashboard
