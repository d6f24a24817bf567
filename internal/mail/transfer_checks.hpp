#pragma once

// What the record checks of export and import share (transfer_schedules.cpp, transfer_wake.cpp):
// the usage error naming a record's bad field, and the list of fields two records differ in.

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/result.hpp"

namespace mailroom::mail::transfer_checks {

inline Error bad_field(std::string_view kind, std::string_view field, std::string_view why)
{
  return make_error(ErrorCode::usage, fmt::format("{} record: \"{}\" {}", kind, field, why));
}

template <typename T>
void compare_field(std::vector<std::string>& out, const char* name, const T& a, const T& b)
{
  if (!(a == b)) {
    out.emplace_back(name);
  }
}

} // namespace mailroom::mail::transfer_checks
