#pragma once

// The one table of configuration keys. Parsing (config.cpp), the template `init` writes,
// `mailroom config` (text and JSON), docs/configuration.md (checked by a test) and completion all
// come from it. Two sections hold names of the user's choosing and are described here too:
// [groups] NAME = [mailboxes] and [types.NAME] expects_reply = bool.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "config/config.hpp"

namespace mailroom::config {

enum class KeyKind {
  string, // any string
  choice, // one of KeySpec::choices, stored as its enum
  boolean,
  integer,   // between KeySpec::min and KeySpec::max
  number,    // a float between min and max
  duration,  // "500ms", "30s", "10m", "2h", "7d" (stored in milliseconds)
  strings,   // an array of strings (a command's argv)
  mailboxes, // an array of valid mailbox names
};

// One allowed value of a choice key: its TOML text and its enum value (as an int).
struct Choice {
  std::string_view name;
  int value;
};
template <typename E> constexpr Choice choice(std::string_view name, E value)
{
  return {name, static_cast<int>(value)};
}

// A choice key's enum member (a Setting<E> of Config), read and written as the enum's int value.
struct ChoiceField {
  int (*get)(const Config&);
  void (*set)(Config&, int value, const Origin& origin);
  const Origin& (*origin)(const Config&);
};
template <auto Member> constexpr ChoiceField choice_field()
{
  using E = std::remove_cvref_t<decltype((std::declval<Config&>().*Member).value)>;
  return {[](const Config& config) { return static_cast<int>((config.*Member).value); },
          [](Config& config, int value, const Origin& origin) {
            config.*Member = Setting<E>{static_cast<E>(value), origin};
          },
          [](const Config& config) -> const Origin& { return (config.*Member).origin; }};
}

using Field =
    std::variant<Setting<std::string> Config::*, Setting<bool> Config::*, Setting<std::int64_t> Config::*,
                 Setting<double> Config::*, Setting<std::vector<std::string>> Config::*, ChoiceField>;

struct KeySpec {
  std::string_view key; // "store.busy_timeout_ms"
  KeyKind kind;
  Field field;
  std::string_view help;           // one line: what it does
  std::string_view example;        // the TOML value the template shows
  bool commented = false;          // the template shows it commented out
  std::span<const Choice> choices; // KeyKind::choice: every allowed value, in the order shown
  std::int64_t min = 0;            // integer and number bounds
  std::int64_t max = 0;
};

// Every fixed key, in template order.
std::span<const KeySpec> config_keys();

// The spec of `dotted` ("mail.provider"), or nullptr.
const KeySpec* find_key(std::string_view dotted);

// The sections of the table in order ("", "mail", "store", …), for the template.
std::vector<std::string_view> config_sections();

// The choice of `spec` (a KeyKind::choice key) named `text`, or nullptr.
const Choice* find_choice(const KeySpec& spec, std::string_view text);
// "\"a\" or \"b\"", "\"a\", \"b\" or \"c\"": the allowed values of a choice key, for errors.
std::string describe_choices(const KeySpec& spec);

// A resolved value, typed as JSON wants it (a choice as its name).
using Value = std::variant<std::string, bool, std::int64_t, double, std::vector<std::string>>;

// The value `spec` selects in `config` (a duration as its text, e.g. "30m").
Value value_of(const Config& config, const KeySpec& spec);
// Its origin.
const Origin& origin_of(const Config& config, const KeySpec& spec);
// A one-line display form ("30m", "true", "[\"a\", \"b\"]", "(none)" for an empty string/array).
std::string display(const Value& value);

} // namespace mailroom::config
