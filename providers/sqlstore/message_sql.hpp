#pragma once

// CoreQueries::insert_message, assembled at compile time from the field table
// (mail/message_fields.hpp): one column and one parameter per field, in table order, then the
// body's size and preview (the two columns the stores keep beside a body). insert_message_row
// (send.cpp) binds the parameters in the same order.

#include <array>
#include <cstddef>
#include <string_view>

#include "mail/message_fields.hpp"

namespace mailroom::providers::sqlstore::message_sql {

// The columns written after the table's: ?N+1 body_bytes, ?N+2 preview (N the table's rows).
inline constexpr std::array<std::string_view, 2> k_body_extra_columns = {"body_bytes", "preview"};
inline constexpr std::size_t k_insert_parameters =
    mail::k_message_fields.size() + k_body_extra_columns.size();

// Builds the statement into `out` (when not null) and returns its length.
constexpr std::size_t build_insert_message(char* out)
{
  std::size_t n = 0;
  auto put = [&](std::string_view piece) {
    for (const char c : piece) {
      if (out != nullptr) {
        out[n] = c;
      }
      ++n;
    }
  };
  auto put_number = [&](std::size_t number) {
    char digits[20] = {};
    std::size_t count = 0;
    do {
      digits[count++] = static_cast<char>('0' + number % 10);
      number /= 10;
    } while (number > 0);
    while (count > 0) {
      put(std::string_view(&digits[--count], 1));
    }
  };
  put("\nINSERT INTO beads (");
  for (const mail::MessageField& field : mail::k_message_fields) {
    put(field.column);
    put(", ");
  }
  put(k_body_extra_columns[0]);
  put(", ");
  put(k_body_extra_columns[1]);
  put(")\nVALUES (");
  for (std::size_t parameter = 1; parameter <= k_insert_parameters; ++parameter) {
    put("?");
    put_number(parameter);
    put(parameter < k_insert_parameters ? ", " : ")\nRETURNING seq");
  }
  return n;
}

inline constexpr std::array<char, build_insert_message(nullptr)> k_insert_message_text = [] {
  std::array<char, build_insert_message(nullptr)> text{};
  build_insert_message(text.data());
  return text;
}();

inline constexpr std::string_view k_insert_message{k_insert_message_text.data(),
                                                   k_insert_message_text.size()};

} // namespace mailroom::providers::sqlstore::message_sql
