#pragma once

// Test support (included only by the *_test.cpp files that write an engine's SQL to a golden file,
// providers/beads/sql_golden_test.cpp and providers/postgres/sql_golden_test.cpp): every statement
// of a Queries struct, named "<group>.<member>" in declaration order, as the store runs it, and
// the comparison with testdata/sql/<engine>.sql that UPDATE_GOLDEN=1 rewrites instead.
//
// The names come from queries.hpp itself, read at test time, so a statement added there is in the
// golden file at the next regeneration with nothing else to edit: every member of a query group
// is a std::string_view on a line of its own (ListQueries ends with a pointer to its search
// syntax), which is what the reader expects; when the members it found do not add up to
// sizeof(Queries), it says so instead of writing a file.

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sqlstore/queries.hpp"

namespace mailroom::providers::sqlstore::golden {

// One statement: its name ("core.select_message") and its text.
using Statement = std::pair<std::string, std::string>;

inline std::string read_text(const std::filesystem::path& path)
{
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The body of `struct <name> {` … `};` in `source`; empty when there is none.
inline std::string struct_body(const std::string& source, const std::string& name)
{
  const std::string head = "struct " + name + " {";
  const std::size_t start = source.find(head);
  if (start == std::string::npos) {
    return {};
  }
  const std::size_t end = source.find("\n};", start);
  return source.substr(start + head.size(), end - start - head.size());
}

// The members `std::string_view NAME;` of `body`, in order; `pointer` counts the pointer members.
inline std::vector<std::string> view_members(const std::string& body, std::size_t& pointers)
{
  static const std::regex view(R"(^\s*std::string_view (\w+);)");
  static const std::regex pointer(R"(^\s*const \w+\* (\w+)(\s*=[^;]*)?;)");
  std::vector<std::string> names;
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (std::regex_search(line, match, view)) {
      names.push_back(match[1]);
    } else if (std::regex_search(line, match, pointer)) {
      ++pointers;
    }
  }
  return names;
}

// Every statement of `queries`, by the declarations in `header` (queries.hpp's text); an error
// message instead when the declarations do not match the struct's size.
inline std::vector<Statement> statements_of(const Queries& queries, const std::string& header,
                                            std::string& error)
{
  static const std::regex group(R"(^\s*(\w+Queries) (\w+);)");
  std::vector<Statement> out;
  std::size_t offset = 0;
  std::istringstream lines(struct_body(header, "Queries"));
  const auto* bytes = reinterpret_cast<const unsigned char*>(&queries);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_search(line, match, group)) {
      continue;
    }
    std::size_t pointers = 0;
    for (const std::string& name : view_members(struct_body(header, match[1]), pointers)) {
      if (offset + sizeof(std::string_view) > sizeof(Queries)) {
        error = "queries.hpp declares more statements than sizeof(Queries) holds";
        return {};
      }
      std::string_view text;
      std::memcpy(&text, bytes + offset, sizeof(text));
      out.emplace_back(std::string(match[2]) + "." + name, std::string(text));
      offset += sizeof(std::string_view);
    }
    offset += pointers * sizeof(void*);
    offset = (offset + alignof(std::string_view) - 1) / alignof(std::string_view) * alignof(std::string_view);
  }
  if (offset != sizeof(Queries)) {
    error = "the statements read from queries.hpp take " + std::to_string(offset) +
            " bytes, sizeof(Queries) is " + std::to_string(sizeof(Queries)) +
            ": a member is not a std::string_view on a line of its own (golden_sql_test_support.hpp)";
    return {};
  }
  return out;
}

// Every statement of a struct whose members are all std::string_view (`object`, `size` bytes),
// named "<prefix>.<member>" by the declarations of `name` in `header`; an error message instead
// when they do not match its size.
inline std::vector<Statement> views_of(const void* object, std::size_t size, const std::string& header,
                                       const std::string& name, const std::string& prefix, std::string& error)
{
  std::size_t pointers = 0;
  const std::vector<std::string> members = view_members(struct_body(header, name), pointers);
  if (pointers != 0 || members.size() * sizeof(std::string_view) != size) {
    error = name + ": its declarations are not sizeof(" + name + ") bytes of std::string_view";
    return {};
  }
  std::vector<Statement> out;
  for (std::size_t i = 0; i < members.size(); ++i) {
    std::string_view text;
    std::memcpy(&text, static_cast<const unsigned char*>(object) + i * sizeof(text), sizeof(text));
    out.emplace_back(prefix + "." + members[i], std::string(text));
  }
  return out;
}

// The golden file's text: a header, then each statement under its name, ending with ";".
inline std::string render(std::string_view title, const std::vector<Statement>& statements)
{
  std::string out;
  out += "-- ";
  out += title;
  out += "\n-- Written by a unit test; regenerate with `make golden-sql` (docs/store.md, \"Reading the "
         "SQL\").\n";
  for (const auto& [name, text] : statements) {
    std::string_view body = text;
    while (!body.empty() && (body.front() == '\n' || body.front() == ' ')) {
      body.remove_prefix(1);
    }
    out += "\n-- " + name + "\n";
    out += body.empty() ? std::string("-- (empty)") : std::string(body) + ";";
    out += "\n";
  }
  return out;
}

// Compares `text` with the golden file `path`, or (UPDATE_GOLDEN=1) writes it there. The error
// names the first line that differs and how to update; nullopt when they are the same.
inline std::optional<std::string> compare_golden(const std::filesystem::path& path, const std::string& text)
{
  const char* update = std::getenv("UPDATE_GOLDEN");
  if (update != nullptr && std::string_view(update) == "1") {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return std::nullopt;
  }
  const std::string golden = read_text(path);
  if (golden == text) {
    return std::nullopt;
  }
  std::istringstream want(golden);
  std::istringstream got(text);
  std::string a;
  std::string b;
  int line = 0;
  while (true) {
    ++line;
    const bool more_a = static_cast<bool>(std::getline(want, a));
    const bool more_b = static_cast<bool>(std::getline(got, b));
    if (!more_a || !more_b || a != b) {
      return path.string() + " differs from the statements at line " + std::to_string(line) +
             ":\n  golden: " + (more_a ? a : "(end)") + "\n  now:    " + (more_b ? b : "(end)") +
             "\nIf the change is meant, run `make golden-sql` (or UPDATE_GOLDEN=1 build/mailroom_unittest "
             "-ts='*sql golden*') and commit the file.";
    }
  }
}

} // namespace mailroom::providers::sqlstore::golden
