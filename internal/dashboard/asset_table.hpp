#pragma once

// The table cmake/EmbedAssets.cmake generates: one entry per file of internal/dashboard/.
// Only assets.cpp and its test read it; everything else calls find_asset.

#include <span>
#include <string_view>

#include "dashboard/assets.hpp"

namespace mailroom::dashboard {

struct AssetEntry {
  std::string_view path;
  Asset asset;
};

std::span<const AssetEntry> asset_entries();

} // namespace mailroom::dashboard
