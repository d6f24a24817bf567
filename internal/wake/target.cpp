#include "wake/target.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include <unistd.h>

#include <fmt/format.h>

#include "text/strings.hpp"
#include "wake/placeholders.hpp"

namespace mailroom::wake {

namespace {

constexpr std::string_view k_tmux_prefix = "tmux:";
constexpr std::size_t k_display_bytes = 60;

Error usage(std::string message, std::string hint = {})
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

std::string echoed(std::string_view value)
{
  return fmt::format("\"{}\"", text::cap_for_echo(value));
}

// The socket tmux itself would use for `-L name`: ${TMUX_TMPDIR:-/tmp}/tmux-UID/name.
std::string named_socket(const util::Environment& env, std::string_view name)
{
  std::string dir = env.get("TMUX_TMPDIR").value_or("");
  if (dir.empty()) {
    dir = "/tmp";
  }
  return fmt::format("{}/tmux-{}/{}", dir, ::getuid(), name);
}

Result<Target> parse_tmux(const std::vector<std::string>& words, const util::Environment& env)
{
  Target target;
  target.kind = TargetKind::tmux;
  target.tmux_target = words[0].substr(k_tmux_prefix.size());
  if (target.tmux_target.empty()) {
    return usage("wake target \"tmux:\" names no pane", "write tmux:SESSION:WINDOW.PANE, e.g. tmux:main:0.1");
  }
  const auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
  if (std::any_of(target.tmux_target.begin(), target.tmux_target.end(), control)) {
    return usage(fmt::format("wake target {} holds a control character", echoed(words[0])));
  }
  if (words.size() == 1) {
    // The tmux the caller runs in ($TMUX is "SOCKET,PID,SESSION"), else tmux's default socket.
    const std::string tmux = env.get("TMUX").value_or("");
    const std::string socket = tmux.substr(0, tmux.find(','));
    target.tmux_socket = socket.empty() ? named_socket(env, "default") : socket;
    return target;
  }
  if (words.size() != 3 || (words[1] != "-S" && words[1] != "-L")) {
    return usage(
        fmt::format("wake target {} takes only -S SOCKET_PATH or -L SOCKET_NAME after it", echoed(words[0])));
  }
  const std::string& socket = words[2];
  if (words[1] == "-S" && (socket.empty() || socket[0] != '/')) {
    return usage(fmt::format("tmux socket path {} is not absolute", echoed(socket)));
  }
  if (words[1] == "-L" && (socket.empty() || socket.find('/') != std::string::npos)) {
    return usage(fmt::format("tmux socket name {} is empty or holds a '/'", echoed(socket)));
  }
  target.tmux_socket = words[1] == "-S" ? socket : named_socket(env, socket);
  return target;
}

std::string_view kind_name(TargetKind kind)
{
  switch (kind) {
  case TargetKind::argv:
    return "argv";
  case TargetKind::named:
    return "named";
  case TargetKind::tmux:
    return "tmux";
  }
  return "argv";
}

} // namespace

Setter Setter::this_process()
{
  Setter setter;
  setter.uid = static_cast<std::int64_t>(::getuid());
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0) {
    setter.host = host.data();
  }
  return setter;
}

bool valid_target_name(std::string_view name)
{
  if (name.empty() || name.size() > 64) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

Result<void> check_argv(const std::vector<std::string>& argv)
{
  if (argv.empty() || argv[0].empty()) {
    return usage("wake command is empty", "give the program and its arguments, e.g. --wake notify-send {to}");
  }
  for (const auto& word : argv) {
    if (word.find('\0') != std::string::npos) {
      return usage(fmt::format("wake command word {} holds a NUL byte", echoed(word)));
    }
    if (auto unknown = unknown_placeholder(word, k_argv_placeholders)) {
      return usage(
          fmt::format("unknown placeholder \"{{{}}}\" in wake command", text::cap_for_echo(*unknown)),
          "the placeholders are {to}, {id}, {from}, {subject} and {count}");
    }
  }
  return {};
}

Result<Target> parse_target(const std::vector<std::string>& words, const util::Environment& env,
                            const Setter& set_by)
{
  if (words.empty()) {
    return usage("--wake needs a target", "tmux:SESSION:WINDOW.PANE, @NAME or a command with its arguments");
  }
  Result<Target> parsed = Target{};
  if (text::starts_with(words[0], k_tmux_prefix)) {
    parsed = parse_tmux(words, env);
  } else if (text::starts_with(words[0], "@")) {
    const std::string name = words[0].substr(1);
    if (words.size() != 1) {
      return usage(fmt::format("wake target {} takes no arguments", echoed(words[0])));
    }
    if (!valid_target_name(name)) {
      return usage(fmt::format("wake target name {} is not valid", echoed(words[0])),
                   "@NAME names an entry of [wake.targets]: letters, digits, '_' and '-'");
    }
    Target named;
    named.kind = TargetKind::named;
    named.name = name;
    parsed = std::move(named);
  } else {
    TRY(check_argv(words));
    Target argv;
    argv.kind = TargetKind::argv;
    argv.argv = words;
    parsed = std::move(argv);
  }
  if (parsed.ok()) {
    parsed->set_by = set_by;
  }
  return parsed;
}

Result<Target> resolve_named(const Target& target,
                             const std::map<std::string, std::vector<std::string>>& named)
{
  if (target.kind != TargetKind::named) {
    return target;
  }
  const auto found = named.find(target.name);
  if (found == named.end()) {
    return usage(fmt::format("no wake target \"@{}\" in [wake.targets]", target.name));
  }
  if (auto checked = check_argv(found->second); !checked.ok()) {
    Error error = std::move(checked).error();
    error.message = fmt::format("[wake.targets] {}: {}", target.name, error.message);
    return error;
  }
  Target resolved;
  resolved.kind = TargetKind::argv;
  resolved.argv = found->second;
  resolved.set_by = target.set_by;
  return resolved;
}

bool runs_here(const Target& target, const Setter& here)
{
  return target.set_by.uid == here.uid && target.set_by.host == here.host;
}

nlohmann::json to_stored(const Target& target)
{
  nlohmann::json stored = {{"kind", kind_name(target.kind)}};
  switch (target.kind) {
  case TargetKind::argv:
    stored["argv"] = target.argv;
    break;
  case TargetKind::named:
    stored["name"] = target.name;
    break;
  case TargetKind::tmux:
    stored["target"] = target.tmux_target;
    stored["socket"] = target.tmux_socket;
    break;
  }
  stored["host"] = target.set_by.host;
  stored["uid"] = target.set_by.uid;
  return stored;
}

Result<Target> from_stored(const nlohmann::json& stored)
{
  auto bad = [](std::string_view what) {
    return make_error(ErrorCode::store_error, fmt::format("stored wake target is not valid: {}", what));
  };
  auto string_field = [&](const char* key) -> std::optional<std::string> {
    if (!stored.contains(key) || !stored[key].is_string()) {
      return std::nullopt;
    }
    return stored[key].get<std::string>();
  };
  if (!stored.is_object()) {
    return bad("not an object");
  }
  Target target;
  const auto kind = string_field("kind");
  const auto host = string_field("host");
  if (!host || !stored.contains("uid") || !stored["uid"].is_number_integer()) {
    return bad("no host or uid");
  }
  target.set_by.host = *host;
  target.set_by.uid = stored["uid"].get<std::int64_t>();
  if (kind == "argv") {
    target.kind = TargetKind::argv;
    if (!stored.contains("argv") || !stored["argv"].is_array()) {
      return bad("no argv");
    }
    for (const auto& word : stored["argv"]) {
      if (!word.is_string()) {
        return bad("an argv word is not a string");
      }
      target.argv.push_back(word.get<std::string>());
    }
    if (!check_argv(target.argv).ok()) {
      return bad("its argv does not parse");
    }
  } else if (kind == "named") {
    target.kind = TargetKind::named;
    target.name = string_field("name").value_or("");
    if (!valid_target_name(target.name)) {
      return bad("no valid name");
    }
  } else if (kind == "tmux") {
    target.kind = TargetKind::tmux;
    target.tmux_target = string_field("target").value_or("");
    target.tmux_socket = string_field("socket").value_or("");
    if (target.tmux_target.empty() || target.tmux_socket.empty() || target.tmux_socket[0] != '/') {
      return bad("no tmux target or socket");
    }
  } else {
    return bad("unknown kind");
  }
  return target;
}

std::string display(const Target& target)
{
  switch (target.kind) {
  case TargetKind::tmux:
    return text::cap_for_echo(fmt::format("tmux:{}", target.tmux_target), k_display_bytes);
  case TargetKind::named:
    return fmt::format("@{}", target.name);
  case TargetKind::argv:
    break;
  }
  return text::cap_for_echo(text::join(target.argv, " "), k_display_bytes);
}

std::vector<std::string> expand_argv(const std::vector<std::string>& argv, const Facts& facts)
{
  const auto value_of = [&](std::string_view name) {
    std::string value;
    if (name == "to") {
      value = facts.to;
    } else if (name == "id") {
      value = facts.id;
    } else if (name == "from") {
      value = facts.from;
    } else if (name == "subject") {
      value = facts.subject;
    } else {
      value = std::to_string(facts.count);
    }
    std::erase(value, '\0'); // an argv word ends at a NUL: drop it rather than cut the value
    return value;
  };
  std::vector<std::string> expanded;
  expanded.reserve(argv.size());
  for (const auto& word : argv) {
    expanded.push_back(substitute(word, k_argv_placeholders, value_of));
  }
  return expanded;
}

} // namespace mailroom::wake
