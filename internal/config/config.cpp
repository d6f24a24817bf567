#include "config/config.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "config/keys.hpp"
#include "config/toml_guard.hpp"
#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "mail/stores.hpp"
#include "mail/types.hpp"
#include "text/strings.hpp"
#include "util/file_read.hpp"

namespace mailroom::config {

namespace {

// Reads one file's tree into a Config through the key table; each failure is
// "<path>:<line>:<col>: <what>".
class Reader {
public:
  Reader(Config& config, const std::string& path) : m_config(config), m_path(path) {}

  Result<void> read_table(const toml::table& table, const std::string& prefix)
  {
    for (auto&& [key, node] : table) {
      const std::string name(key.str());
      const std::string dotted = prefix.empty() ? name : prefix + "." + name;
      if (dotted == "groups") {
        TRY(read_section(key, node, &Reader::read_groups));
      } else if (dotted == "types") {
        TRY(read_section(key, node, &Reader::read_types));
      } else if (dotted == "wake.targets") {
        TRY(read_section(key, node, &Reader::read_wake_targets));
      } else if (const KeySpec* spec = find_key(dotted); spec != nullptr) {
        TRY(read_value(*spec, node));
      } else if (is_section(dotted)) {
        const toml::table* inner = node.as_table();
        if (inner == nullptr) {
          return fail(key.source(), fmt::format("\"{}\" must be a table", dotted));
        }
        TRY(read_table(*inner, dotted));
      } else {
        return unknown(key, dotted);
      }
    }
    return {};
  }

private:
  using SectionFn = Result<void> (Reader::*)(const toml::table&);

  static bool is_section(std::string_view dotted)
  {
    for (const KeySpec& spec : config_keys()) {
      if (text::starts_with(spec.key, dotted) && spec.key.size() > dotted.size() &&
          spec.key[dotted.size()] == '.') {
        return true;
      }
    }
    return false;
  }

  // What is wrong with `value` for the string key `key`, or "" when it is fine.
  static std::string problem_with(std::string_view key, const std::string& value)
  {
    const std::string shown = text::cap_for_echo(value);
    if (key == "identity" && !value.empty() && !mail::is_valid_mailbox(value)) {
      return fmt::format("identity \"{}\" is not a valid mailbox", shown);
    }
    if (key == "mail.provider" && !mail::is_provider_value(value)) {
      return fmt::format("mail.provider \"{}\" must be {}", shown, mail::provider_values_text());
    }
    if (key == "store.path" && value.empty()) {
      return "store.path must not be empty";
    }
    if (key == "store.url" && mail::is_path_location(value)) {
      return "store.url must be a postgresql:// or postgres:// URL, or a libpq keyword string (host=... "
             "dbname=...)";
    }
    if (key == "store.id_prefix" && !valid_prefix(value)) {
      return fmt::format("store.id_prefix \"{}\" must be 1 to 16 lower-case letters or digits", shown);
    }
    if (key == "delivery.redelivery.escalate_to" && value != "sender" && !mail::is_valid_mailbox(value)) {
      return fmt::format("delivery.redelivery.escalate_to \"{}\" must be \"sender\" or a mailbox", shown);
    }
    return {};
  }

  static bool valid_prefix(std::string_view prefix)
  {
    if (prefix.empty() || prefix.size() > 16) {
      return false;
    }
    return prefix.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") == std::string_view::npos;
  }

  Result<void> read_section(const toml::key& key, const toml::node& node, SectionFn fn)
  {
    const toml::table* table = node.as_table();
    if (table == nullptr) {
      return fail(key.source(), fmt::format("\"{}\" must be a table", key.str()));
    }
    return (this->*fn)(*table);
  }

  Result<void> read_value(const KeySpec& spec, const toml::node& node)
  {
    const Origin origin = origin_at(node);
    switch (spec.kind) {
    case KeyKind::string:
    case KeyKind::choice:
    case KeyKind::duration: {
      const auto* value = node.as_string();
      if (value == nullptr) {
        return fail(node.source(), spec.kind == KeyKind::duration
                                       ? fmt::format("{} must be a duration such as \"30m\"", spec.key)
                                       : fmt::format("{} must be a string", spec.key));
      }
      if (spec.kind == KeyKind::duration) {
        auto ms = mail::parse_duration(value->get(), spec.key);
        if (!ms.ok()) {
          return fail(node.source(), ms.error().message);
        }
        if (spec.max > 0 && (*ms < spec.min || *ms > spec.max)) {
          return fail(node.source(),
                      fmt::format("{} must be between {} and {}", spec.key, mail::format_duration(spec.min),
                                  mail::format_duration(spec.max)));
        }
        return assign(spec, *ms, origin);
      }
      if (const std::string problem = problem_with(spec.key, value->get()); !problem.empty()) {
        return fail(node.source(), problem);
      }
      if (spec.kind == KeyKind::choice) {
        const Choice* choice = find_choice(spec, value->get());
        const auto* member = std::get_if<ChoiceField>(&spec.field);
        if (choice == nullptr || member == nullptr) {
          return fail(node.source(), fmt::format("{} \"{}\" must be {}", spec.key,
                                                 text::cap_for_echo(value->get()), describe_choices(spec)));
        }
        member->set(m_config, choice->value, origin);
        return {};
      }
      return assign(spec, value->get(), origin);
    }
    case KeyKind::boolean: {
      const auto* value = node.as_boolean();
      if (value == nullptr) {
        return fail(node.source(), fmt::format("{} must be true or false", spec.key));
      }
      return assign(spec, value->get(), origin);
    }
    case KeyKind::integer: {
      const auto* value = node.as_integer();
      if (value == nullptr) {
        return fail(node.source(), fmt::format("{} must be an integer", spec.key));
      }
      if (value->get() < spec.min || value->get() > spec.max) {
        return fail(node.source(), fmt::format("{} must be between {} and {}", spec.key, spec.min, spec.max));
      }
      return assign(spec, static_cast<std::int64_t>(value->get()), origin);
    }
    case KeyKind::number: {
      const std::optional<double> value = node.value<double>();
      if (!value || (!node.is_floating_point() && !node.is_integer())) {
        return fail(node.source(), fmt::format("{} must be a number", spec.key));
      }
      if (*value < static_cast<double>(spec.min) || *value > static_cast<double>(spec.max)) {
        return fail(node.source(), fmt::format("{} must be between {} and {}", spec.key, spec.min, spec.max));
      }
      return assign(spec, *value, origin);
    }
    case KeyKind::strings:
    case KeyKind::mailboxes: {
      TRY_ASSIGN(std::vector<std::string> items,
                 read_strings(node, spec.key, spec.kind == KeyKind::mailboxes));
      if (spec.key == "notify.command" && (items.empty() || items.front().empty())) {
        return fail(node.source(), "notify.command must name a program as its first element");
      }
      if (spec.key == "wake.on") {
        for (const std::string& item : items) {
          if (item != "urgent" && item != "request" && item != "notify") {
            return fail(node.source(),
                        fmt::format("wake.on: \"{}\" must be \"urgent\", \"request\" or \"notify\"",
                                    text::cap_for_echo(item)));
          }
        }
      }
      return assign(spec, std::move(items), origin);
    }
    }
    return {};
  }

  template <typename T> Result<void> assign(const KeySpec& spec, T value, const Origin& origin)
  {
    auto* member = std::get_if<Setting<T> Config::*>(&spec.field);
    if (member == nullptr) {
      return make_error(ErrorCode::usage,
                        fmt::format("{}: internal error: key {} has the wrong type", m_path, spec.key));
    }
    m_config.*(*member) = Setting<T>{std::move(value), origin};
    return {};
  }

  Result<void> read_groups(const toml::table& table)
  {
    for (auto&& [key, node] : table) {
      const std::string name(key.str());
      if (name == "all" || !mail::is_valid_mailbox(name) || name.find('/') != std::string::npos) {
        return fail(key.source(), fmt::format("group name \"{}\" must be one name other than \"all\"",
                                              text::cap_for_echo(name)));
      }
      TRY_ASSIGN(std::vector<std::string> members, read_strings(node, "groups." + name, true));
      m_config.groups[name] = {std::move(members), origin_at(node)};
    }
    return {};
  }

  // [wake.targets] NAME = [argv…]: argv targets that `agents set NAME --wake @NAME` refers to
  // (their placeholders are checked where they are used, by internal/wake).
  Result<void> read_wake_targets(const toml::table& table)
  {
    for (auto&& [key, node] : table) {
      const std::string name(key.str());
      TRY_ASSIGN(std::vector<std::string> argv, read_strings(node, "wake.targets." + name, false));
      if (argv.empty() || argv.front().empty()) {
        return fail(node.source(), fmt::format("wake.targets.{} must name a program as its first element",
                                               text::cap_for_echo(name)));
      }
      m_config.wake_targets[name] = {std::move(argv), origin_at(node)};
    }
    return {};
  }

  Result<void> read_types(const toml::table& table)
  {
    for (auto&& [key, node] : table) {
      const std::string name(key.str());
      const toml::table* type = node.as_table();
      if (type == nullptr) {
        return fail(key.source(),
                    fmt::format("types.{} must be a table with expects_reply", text::cap_for_echo(name)));
      }
      const auto& builtin = mail::builtin_types();
      if (std::any_of(builtin.begin(), builtin.end(),
                      [&](const mail::MessageType& t) { return t.name == name; })) {
        return fail(key.source(),
                    fmt::format("types.{} names a built-in type; a custom type needs a name of its own",
                                text::cap_for_echo(name)));
      }
      Setting<bool> expects{false, origin_at(node)};
      for (auto&& [field, value] : *type) {
        if (field.str() != "expects_reply") {
          return unknown(field, fmt::format("types.{}.{}", name, field.str()));
        }
        if (!value.is_boolean()) {
          return fail(value.source(), fmt::format("types.{}.expects_reply must be true or false", name));
        }
        expects = {value.as_boolean()->get(), origin_at(value)};
      }
      m_config.types[name] = expects;
    }
    return {};
  }

  Origin origin_at(const toml::node& node) const
  {
    return {Origin::Kind::file, fmt::format("{}:{}", m_path, node.source().begin.line)};
  }

  Result<std::vector<std::string>> read_strings(const toml::node& node, std::string_view name,
                                                bool mailboxes) const
  {
    const auto* array = node.as_array();
    const std::string what = mailboxes ? "an array of mailbox names" : "an array of strings";
    if (array == nullptr) {
      return fail(node.source(), fmt::format("{} must be {}", name, what));
    }
    std::vector<std::string> out;
    for (const toml::node& element : *array) {
      const auto* text = element.as_string();
      if (text == nullptr) {
        return fail(element.source(), fmt::format("{} must be {}", name, what));
      }
      if (mailboxes && !mail::is_valid_mailbox(text->get())) {
        return fail(element.source(),
                    fmt::format("{}: \"{}\" is not a valid mailbox", name, text::cap_for_echo(text->get())));
      }
      out.push_back(text->get());
    }
    return out;
  }

  Error fail(const toml::source_region& where, std::string what) const
  {
    return make_error(ErrorCode::usage,
                      fmt::format("{}:{}:{}: {}", m_path, where.begin.line, where.begin.column, what));
  }

  Error unknown(const toml::key& key, const std::string& dotted) const
  {
    Error error = fail(key.source(), fmt::format("unknown key \"{}\"", text::cap_for_echo(key.str())));
    for (const KeySpec& spec : config_keys()) {
      if (text::edit_distance(spec.key, dotted) <= 2) {
        error.hint = fmt::format("did you mean \"{}\"?", spec.key);
        return error;
      }
    }
    // A misspelt table ([stor]) or key of one: the tables of the key table, [groups], [types].
    std::vector<std::string> tables = {"groups", "types", "wake.targets"};
    for (const KeySpec& spec : config_keys()) {
      for (auto dot = spec.key.find('.'); dot != std::string_view::npos; dot = spec.key.find('.', dot + 1)) {
        tables.emplace_back(spec.key.substr(0, dot));
      }
    }
    for (const std::string& table : tables) {
      if (text::edit_distance(table, dotted) <= 2) {
        error.hint = fmt::format("did you mean \"[{}]\"?", table);
        break;
      }
    }
    return error;
  }

  Config& m_config;
  const std::string& m_path;
};

} // namespace

std::string to_string(const Origin& origin)
{
  switch (origin.kind) {
  case Origin::Kind::default_value:
    return origin.detail.empty() ? "default" : "default (" + origin.detail + ")";
  case Origin::Kind::file:
    return origin.detail;
  case Origin::Kind::env:
    return "env " + origin.detail;
  case Origin::Kind::flag:
    return "flag " + origin.detail;
  }
  return "default";
}

Result<Config> parse_config(std::string_view text, const std::string& display_path)
{
  Config config;
  config.file = display_path;
  TRY(check_text_outside_strings(text, display_path));
  toml::table root;
  // toml++ reports syntax errors by exception; turn them into the same path:line:col error here so
  // callers see one error type.
  try {
    root = toml::parse(text, display_path);
  } catch (const toml::parse_error& e) {
    std::string what(e.description());
    if (!what.empty() && what[0] >= 'A' && what[0] <= 'Z') {
      what[0] = static_cast<char>(what[0] - 'A' + 'a');
    }
    return make_error(ErrorCode::usage, fmt::format("{}:{}:{}: {}", display_path, e.source().begin.line,
                                                    e.source().begin.column, text::cap_for_echo(what)));
  }
  Reader reader(config, display_path);
  TRY(reader.read_table(root, ""));
  return config;
}

Result<Config> load_config(const std::string& path, const std::string& display_path)
{
  const std::optional<std::string> text = util::read_file(path);
  if (!text) {
    return make_error(ErrorCode::usage, fmt::format("cannot read config file \"{}\"", display_path));
  }
  return parse_config(*text, display_path);
}

} // namespace mailroom::config
