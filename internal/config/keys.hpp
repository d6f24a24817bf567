#pragma once

// The one table of configuration keys. Parsing (config.cpp), the template `init` writes,
// `mailroom config` (text and JSON), docs/configuration.md (checked by a test) and completion all
// come from it. Two sections hold names of the user's choosing and are described here too:
// [groups] NAME = [mailboxes] and [types.NAME] expects_reply = bool.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config/config.hpp"

namespace mailroom::config {

enum class KeyKind {
  string, // any string
  choice, // one of KeySpec::choices ("a|b|c")
  boolean,
  integer,   // between KeySpec::min and KeySpec::max
  number,    // a float between min and max
  duration,  // "500ms", "30s", "10m", "2h", "7d" (stored in milliseconds)
  strings,   // an array of strings (a command's argv)
  mailboxes, // an array of valid mailbox names
};

using Field =
    std::variant<Setting<std::string> Config::*, Setting<bool> Config::*, Setting<std::int64_t> Config::*,
                 Setting<double> Config::*, Setting<std::vector<std::string>> Config::*>;

struct KeySpec {
  std::string_view key; // "store.busy_timeout_ms"
  KeyKind kind;
  Field field;
  std::string_view help;    // one line: what it does
  std::string_view example; // the TOML value the template shows
  bool commented = false;   // the template shows it commented out
  std::string_view choices; // KeyKind::choice: "registered|any"
  std::int64_t min = 0;     // integer and number bounds
  std::int64_t max = 0;
};

// Every fixed key, in template order.
std::span<const KeySpec> config_keys();

// The spec of `dotted` ("mail.provider"), or nullptr.
const KeySpec* find_key(std::string_view dotted);

// The sections of the table in order ("", "mail", "store", …), for the template.
std::vector<std::string_view> config_sections();

// A resolved value, typed as JSON wants it.
using Value = std::variant<std::string, bool, std::int64_t, double, std::vector<std::string>>;

// The value `spec` selects in `config` (a duration as its text, e.g. "30m").
Value value_of(const Config& config, const KeySpec& spec);
// Its origin.
const Origin& origin_of(const Config& config, const KeySpec& spec);
// A one-line display form ("30m", "true", "[\"a\", \"b\"]", "(none)" for an empty string/array).
std::string display(const Value& value);

} // namespace mailroom::config
