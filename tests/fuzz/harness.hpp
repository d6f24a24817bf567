#pragma once

// What every libFuzzer target here shares: the input as text, and a check that stops the run with
// a message when an invariant breaks (libFuzzer then saves the input as a crash).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace mailroom::testing::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size)
{
  return {reinterpret_cast<const char*>(data), size};
}

// Reports `what` (with `detail`) and aborts when `ok` is false. Harness code only: a crash is
// the one signal libFuzzer understands.
inline void require(bool ok, std::string_view what, std::string_view detail = {})
{
  if (!ok) {
    std::fprintf(stderr, "invariant broken: %.*s %.*s\n", static_cast<int>(what.size()), what.data(),
                 static_cast<int>(detail.size()), detail.data());
    std::abort();
  }
}

} // namespace mailroom::testing::fuzz
