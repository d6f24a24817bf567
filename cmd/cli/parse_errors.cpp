#include "parse_errors.hpp"

#include <optional>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "parser.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

std::string lower_first(std::string text)
{
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  const auto newline = text.find('\n');
  if (newline != std::string::npos) {
    text.resize(newline);
  }
  while (!text.empty() && (text.back() == '.' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

// "did you mean "--limit"?" for an option close to `word` among `leaf`'s and the global ones.
std::string option_hint(const CLI::App* leaf, const std::string& word)
{
  if (leaf != nullptr) {
    const auto close = mail::suggest_mailboxes(word, option_names(*leaf), 1);
    if (!close.empty()) {
      return fmt::format("did you mean \"{}\"?", close.front());
    }
  }
  return "run with --help to see the options";
}

// `--limit: Value 0 not in range ...` (CLI11's range check) or `Could not convert: --limit = x`:
// the option and the value, when the message has that shape.
std::optional<std::pair<std::string, std::string>> bad_value(const std::string& what)
{
  const auto value_at = what.find(": Value ");
  if (value_at != std::string::npos && what.find(" not in range") != std::string::npos) {
    const auto begin = value_at + 8;
    return std::pair{what.substr(0, value_at), what.substr(begin, what.find(" not in range") - begin)};
  }
  const std::string_view convert = "Could not convert: ";
  if (what.rfind(convert, 0) == 0) {
    const auto equals = what.find(" = ");
    if (equals != std::string::npos) {
      return std::pair{what.substr(convert.size(), equals - convert.size()), what.substr(equals + 3)};
    }
  }
  return std::nullopt;
}

// The value name help shows for `option` ("N", "DUR"), looking in `leaf` and its parents; empty
// when unknown.
std::string option_type_name(const CLI::App* leaf, const std::string& option)
{
  for (const CLI::App* app = leaf; app != nullptr; app = app->get_parent()) {
    if (const CLI::Option* found = app->get_option_no_throw(option)) {
      return value_name(*found);
    }
  }
  return {};
}

// CLI11's "wrong number of values" messages ("--limit: 1 required UINT:POSITIVE missing",
// "Expected exactly 1 arguments to --to, got 0", "--x: At least 2 required but received 1"):
// the option's name, and whether it got no value at all.
std::optional<std::pair<std::string, bool>> value_count(const std::string& what)
{
  const std::string_view expected = "Expected ";
  if (what.rfind(expected, 0) == 0) {
    const auto to = what.find(" arguments to ");
    const auto comma = what.rfind(", got ");
    if (to == std::string::npos || comma == std::string::npos || comma < to) {
      return std::nullopt;
    }
    const std::string name = what.substr(to + 14, comma - to - 14);
    return std::pair{name, what.substr(comma + 6) == "0"};
  }
  const auto colon = what.find(": ");
  if (colon == std::string::npos || what.empty() || what[0] != '-') {
    return std::nullopt;
  }
  const std::string rest = what.substr(colon + 2);
  const bool none = rest.find(" missing") != std::string::npos || rest.ends_with("received 0");
  return std::pair{what.substr(0, colon), none};
}

} // namespace

std::pair<std::string, const CLI::App*> selected(const CLI::App& app)
{
  std::string name;
  const CLI::App* leaf = &app;
  for (;;) {
    const auto subs = leaf->get_subcommands();
    if (subs.empty()) {
      break;
    }
    leaf = subs.front();
    name += name.empty() ? leaf->get_name() : " " + leaf->get_name();
  }
  return {name, leaf};
}

// CLI11's messages in the contract's style: one lower-case line, user values quoted, and a
// did-you-mean for an unknown option.
Error parse_error_to_error(const CLI::ParseError& e, const CLI::App* leaf)
{
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    const auto colon = what.find(": ");
    std::string first = colon == std::string::npos ? what : what.substr(colon + 2);
    first = first.substr(0, first.find(' '));
    if (!first.empty() && first[0] == '-') {
      const std::string name = first.substr(0, first.find('='));
      return usage_error(fmt::format("unknown option \"{}\"", name), option_hint(leaf, name));
    }
    return usage_error(fmt::format("unexpected argument \"{}\"", first));
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    if (auto count = value_count(what)) {
      const auto& [option, none] = *count;
      const std::string type = option_type_name(leaf, option);
      return usage_error(none ? fmt::format("{} needs a value", option)
                              : fmt::format("{} got the wrong number of values", option),
                         type.empty() ? std::string("run with --help to see the options")
                                      : fmt::format("give it as {} {}", option, type));
    }
  }
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr ||
      dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    if (auto bad = bad_value(what)) {
      const auto& [option, value] = *bad;
      return usage_error(fmt::format("{} must be a whole number of at least 1, not \"{}\"", option, value));
    }
  }
  return usage_error(lower_first(what), "run with --help to see the options");
}

} // namespace mailroom::cli
