#include "config/config.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "mail/address.hpp"

namespace mailroom::config {

namespace {

// Reads one file's tree into a Config; each method fails with "<path>:<line>:<col>: <what>".
class Reader {
public:
  Reader(Config& config, const std::string& path) : m_config(config), m_path(path) {}

  Result<void> read_root(const toml::table& root)
  {
    for (auto&& [key, node] : root) {
      const std::string name(key.str());
      if (name == "identity") {
        TRY_ASSIGN(m_config.identity, read_string(node, name));
        if (!m_config.identity.value.empty() && !mail::is_valid_mailbox(m_config.identity.value)) {
          return fail(node.source(), fmt::format("identity \"{}\" is not a valid mailbox",
                                                 m_config.identity.value));
        }
      } else if (name == "mail") {
        TRY(read_section(key, node, &Reader::read_mail));
      } else if (name == "store") {
        TRY(read_section(key, node, &Reader::read_store));
      } else if (name == "exec") {
        TRY(read_section(key, node, &Reader::read_exec));
      } else if (name == "notify") {
        TRY(read_section(key, node, &Reader::read_notify));
      } else if (name == "groups") {
        TRY(read_section(key, node, &Reader::read_groups));
      } else if (name == "agents") {
        TRY(read_section(key, node, &Reader::read_agents));
      } else {
        return unknown(key);
      }
    }
    return {};
  }

private:
  using SectionFn = Result<void> (Reader::*)(const toml::table&);

  Result<void> read_section(const toml::key& key, const toml::node& node, SectionFn fn)
  {
    const toml::table* table = node.as_table();
    if (table == nullptr) {
      return fail(key.source(), fmt::format("\"{}\" must be a table", key.str()));
    }
    return (this->*fn)(*table);
  }

  Result<void> read_mail(const toml::table& table)
  {
    for (auto&& [key, node] : table) {
      if (key.str() == "provider") {
        TRY_ASSIGN(m_config.provider, read_string(node, "mail.provider"));
        const std::string& value = m_config.provider.value;
        if (value != "beads" && !(value.rfind("exec:", 0) == 0 && value.size() > 5)) {
          return fail(node.source(),
                      fmt::format("mail.provider \"{}\" must be \"beads\" or \"exec:<command>\"", value));
        }
      } else if (key.str() == "recipients") {
        TRY_ASSIGN(auto text, read_string(node, "mail.recipients"));
        if (text.value != "registered" && text.value != "any") {
          return fail(node.source(), fmt::format("mail.recipients \"{}\" must be \"registered\" or \"any\"",
                                                 text.value));
        }
        m_config.recipients = {text.value == "any" ? RecipientPolicy::any : RecipientPolicy::registered,
                               text.origin};
      } else {
        return unknown(key);
      }
    }
    return {};
  }

  Result<void> read_store(const toml::table& table)
  {
    for (auto&& [key, node] : table) {
      if (key.str() == "path") {
        TRY_ASSIGN(m_config.store_path, read_string(node, "store.path"));
        if (m_config.store_path.value.empty()) {
          return fail(node.source(), "store.path must not be empty");
        }
      } else if (key.str() == "synchronous") {
        TRY_ASSIGN(auto text, read_string(node, "store.synchronous"));
        if (text.value != "full" && text.value != "normal") {
          return fail(node.source(), fmt::format("store.synchronous \"{}\" must be \"full\" or \"normal\"",
                                                 text.value));
        }
        m_config.synchronous_full = {text.value == "full", text.origin};
      } else if (key.str() == "id_prefix") {
        TRY_ASSIGN(m_config.id_prefix, read_string(node, "store.id_prefix"));
        if (!valid_prefix(m_config.id_prefix.value)) {
          return fail(node.source(), fmt::format("store.id_prefix \"{}\" must be 1 to 16 lower-case letters "
                                                 "or digits", m_config.id_prefix.value));
        }
      } else if (key.str() == "busy_timeout_ms") {
        TRY_ASSIGN(m_config.busy_timeout_ms, read_int(node, "store.busy_timeout_ms", 0));
      } else if (key.str() == "allow_network_fs") {
        TRY_ASSIGN(m_config.allow_network_fs, read_bool(node, "store.allow_network_fs"));
      } else {
        return unknown(key);
      }
    }
    return {};
  }

  Result<void> read_exec(const toml::table& table)
  {
    for (auto&& [key, node] : table) {
      if (key.str() == "timeout_ms") {
        TRY_ASSIGN(m_config.exec_timeout_ms, read_int(node, "exec.timeout_ms", 1));
      } else {
        return unknown(key);
      }
    }
    return {};
  }

  Result<void> read_notify(const toml::table& table)
  {
    for (auto&& [key, node] : table) {
      if (key.str() == "command") {
        TRY_ASSIGN(m_config.notify_command, read_strings(node, "notify.command"));
        if (m_config.notify_command.value.empty() || m_config.notify_command.value.front().empty()) {
          return fail(node.source(), "notify.command must name a program as its first element");
        }
      } else {
        return unknown(key);
      }
    }
    return {};
  }

  Result<void> read_groups(const toml::table& table)
  {
    for (auto&& [key, node] : table) {
      const std::string name(key.str());
      if (name == "all" || !mail::is_valid_mailbox(name) || name.find('/') != std::string::npos) {
        return fail(key.source(), fmt::format("group name \"{}\" must be one name other than \"all\"", name));
      }
      TRY_ASSIGN(auto members, read_mailboxes(node, "groups." + name));
      m_config.groups[name] = std::move(members);
    }
    return {};
  }

  Result<void> read_agents(const toml::table& table)
  {
    for (auto&& [key, node] : table) {
      if (key.str() == "names") {
        TRY_ASSIGN(m_config.agents, read_mailboxes(node, "agents.names"));
      } else {
        return unknown(key);
      }
    }
    return {};
  }

  static bool valid_prefix(std::string_view prefix)
  {
    if (prefix.empty() || prefix.size() > 16) {
      return false;
    }
    for (const char c : prefix) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
        return false;
      }
    }
    return true;
  }

  Origin origin_of(const toml::node& node) const
  {
    return {Origin::Kind::file, fmt::format("{}:{}", m_path, node.source().begin.line)};
  }

  Result<Setting<std::string>> read_string(const toml::node& node, std::string_view name) const
  {
    const auto* value = node.as_string();
    if (value == nullptr) {
      return fail(node.source(), fmt::format("{} must be a string", name));
    }
    return Setting<std::string>{value->get(), origin_of(node)};
  }

  Result<Setting<bool>> read_bool(const toml::node& node, std::string_view name) const
  {
    const auto* value = node.as_boolean();
    if (value == nullptr) {
      return fail(node.source(), fmt::format("{} must be true or false", name));
    }
    return Setting<bool>{value->get(), origin_of(node)};
  }

  Result<Setting<std::int64_t>> read_int(const toml::node& node, std::string_view name,
                                         std::int64_t minimum) const
  {
    const auto* value = node.as_integer();
    if (value == nullptr) {
      return fail(node.source(), fmt::format("{} must be an integer", name));
    }
    if (value->get() < minimum || value->get() > 86'400'000) {
      return fail(node.source(), fmt::format("{} must be between {} and 86400000", name, minimum));
    }
    return Setting<std::int64_t>{value->get(), origin_of(node)};
  }

  Result<Setting<std::vector<std::string>>> read_strings(const toml::node& node, std::string_view name) const
  {
    const auto* array = node.as_array();
    if (array == nullptr) {
      return fail(node.source(), fmt::format("{} must be an array of strings", name));
    }
    Setting<std::vector<std::string>> out{{}, origin_of(node)};
    for (const toml::node& element : *array) {
      const auto* text = element.as_string();
      if (text == nullptr) {
        return fail(element.source(), fmt::format("{} must be an array of strings", name));
      }
      out.value.push_back(text->get());
    }
    return out;
  }

  Result<Setting<std::vector<mail::Mailbox>>> read_mailboxes(const toml::node& node, const std::string& name) const
  {
    TRY_ASSIGN(auto names, read_strings(node, name));
    const auto* array = node.as_array();
    for (std::size_t i = 0; i < names.value.size(); ++i) {
      if (!mail::is_valid_mailbox(names.value[i])) {
        return fail(array->get(i)->source(),
                    fmt::format("{}: \"{}\" is not a valid mailbox", name, names.value[i]));
      }
    }
    return names;
  }

  Error fail(const toml::source_region& where, std::string what) const
  {
    return make_error(ErrorCode::usage,
                      fmt::format("{}:{}:{}: {}", m_path, where.begin.line, where.begin.column, what));
  }

  Error unknown(const toml::key& key) const
  {
    return fail(key.source(), fmt::format("unknown key \"{}\"", key.str()));
  }

  Config& m_config;
  const std::string& m_path;
};

} // namespace

std::string to_string(const Origin& origin)
{
  switch (origin.kind) {
  case Origin::Kind::default_value: return origin.detail.empty() ? "default" : "default (" + origin.detail + ")";
  case Origin::Kind::file: return origin.detail;
  case Origin::Kind::env: return "env " + origin.detail;
  case Origin::Kind::flag: return "flag " + origin.detail;
  }
  return "default";
}

Result<Config> parse_config(std::string_view text, const std::string& display_path)
{
  Config config;
  config.file = display_path;
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
                                                    e.source().begin.column, what));
  }
  Reader reader(config, display_path);
  TRY(reader.read_root(root));
  return config;
}

Result<Config> load_config(const std::string& path, const std::string& display_path)
{
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::usage, fmt::format("cannot read config file \"{}\"", display_path));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_config(buffer.str(), display_path);
}

Result<mail::ProviderSettings> provider_settings(const Config& config)
{
  mail::ProviderSettings settings;
  const std::string& provider = config.provider.value;
  if (provider == "beads") {
    settings.kind = "beads";
  } else if (provider.rfind("exec:", 0) == 0 && provider.size() > 5) {
    settings.kind = "exec";
    settings.exec.command = provider.substr(5);
  } else {
    return make_error(ErrorCode::usage,
                      fmt::format("provider \"{}\" must be \"beads\" or \"exec:<command>\" (from {})", provider,
                                  to_string(config.provider.origin)));
  }
  settings.store.path = config.store_path.value;
  settings.store.synchronous_full = config.synchronous_full.value;
  settings.store.id_prefix = config.id_prefix.value;
  settings.store.busy_timeout = std::chrono::milliseconds(config.busy_timeout_ms.value);
  settings.store.allow_network_fs = config.allow_network_fs.value;
  settings.exec.timeout = std::chrono::milliseconds(config.exec_timeout_ms.value);
  return settings;
}

std::string config_template()
{
  return R"(# mailroom workspace configuration. Every agent whose working directory is at or below this
# file shares one store. Run `mailroom config` to see each resolved value and where it came from.

# Default identity in this workspace when neither --as, $MAILROOM_IDENTITY, $GC_ALIAS nor
# $GC_AGENT is set (otherwise "human").
# identity = "mayor"

[mail]
# "beads" (the SQLite store below) or "exec:<path-or-command>" (a Gas City mail script).
# $MAILROOM_PROVIDER overrides it.
provider = "beads"
# "registered": recipients must be registered mailboxes (`mailroom agents add NAME`);
# "any": every well-formed mailbox is accepted.
recipients = "registered"

[store]
# The SQLite file, relative to this file. --db and $MAILROOM_DB override it.
path = ".mailroom/mail.db"
# "full" survives power loss; "normal" is faster and survives a crash of mailroom only.
synchronous = "full"
# Message ids look like "<id_prefix>-<hash>".
id_prefix = "mr"
# How long a writer waits for another one, in milliseconds.
busy_timeout_ms = 5000
# SQLite on NFS/SMB/FUSE can corrupt data; set true only if you accept that risk.
allow_network_fs = false

[exec]
# How long an exec provider script may run, in milliseconds.
timeout_ms = 30000

[notify]
# Run after `send --notify` stores a message: an argv list, never a shell.
# Placeholders: {to}, {from}, {id}, {subject}.
# command = ["notify-send", "mail from {from}", "{subject}"]

[groups]
# `mailroom send @reviewers ...` expands to these mailboxes.
# reviewers = ["alice", "bob"]

[agents]
# Registered in the store on first use, so they can receive mail at once.
# names = ["mayor", "polecat"]
)";
}

} // namespace mailroom::config
