#include "settingsfile/state.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include <fmt/format.h>

#include "settingsfile/file_io.hpp"
#include "text/strings.hpp"
#include "util/atomic_file.hpp"
#include "util/file_read.hpp"
#include "util/sha256.hpp"
#include "util/xdg.hpp"

namespace mailroom::settingsfile {

namespace {

using Json = nlohmann::ordered_json;

Result<void> make_private_dir(const std::string& dir)
{
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot create directory \"{}\": {}", dir, ec.message()));
  }
  ::chmod(dir.c_str(), 0700);
  return {};
}

std::string utc_stamp(std::chrono::system_clock::time_point now)
{
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm parts{};
  ::gmtime_r(&seconds, &parts);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y%m%dT%H%M%SZ", &parts);
  return buffer;
}

std::string_view kind_name(Edit::Kind kind)
{
  switch (kind) {
  case Edit::Kind::created_object:
    return "created_object";
  case Edit::Kind::set_member:
    return "set_member";
  case Edit::Kind::appended:
    return "appended";
  case Edit::Kind::toml_table:
    return "toml_table";
  }
  return "set_member";
}

std::optional<Edit::Kind> kind_of(std::string_view name)
{
  for (const Edit::Kind kind :
       {Edit::Kind::created_object, Edit::Kind::set_member, Edit::Kind::appended, Edit::Kind::toml_table}) {
    if (kind_name(kind) == name) {
      return kind;
    }
  }
  return std::nullopt;
}

Result<std::string> record_path(const std::string& path, std::string_view owner, const util::Environment& env)
{
  TRY_ASSIGN(const std::string dir, state_dir(env));
  const std::string key = util::to_hex(util::sha256(fmt::format("{}\n{}", owner, path))).substr(0, 24);
  return fmt::format("{}/installs/{}-{}.json", dir, owner, key);
}

} // namespace

Result<std::string> state_dir(const util::Environment& env)
{
  const std::optional<std::string> state = util::xdg_home(env, util::XdgDir::state);
  if (!state) {
    return make_error(ErrorCode::usage, "cannot place backups: neither XDG_STATE_HOME nor HOME is set");
  }
  return *state + "/mailroom";
}

Result<std::string> save_backup(const std::string& path, std::string_view text, mode_t mode,
                                const Surroundings& around)
{
  TRY_ASSIGN(const std::string state, state_dir(around.env));
  const std::string dir = state + "/backups";
  TRY(make_private_dir(dir));
  std::string flat = path;
  for (char& c : flat) {
    if (c == '/') {
      c = '%';
    }
  }
  const std::string base = fmt::format("{}/{}-{}", dir, utc_stamp(around.now), flat);
  for (int n = 1; n < 1000; ++n) {
    const std::string candidate = n == 1 ? base : fmt::format("{}-{}", base, n);
    const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode & 0600);
    if (fd < 0) {
      if (errno == EEXIST) {
        continue;
      }
      return make_error(ErrorCode::store_error,
                        fmt::format("cannot write the backup \"{}\": {}", candidate, std::strerror(errno)));
    }
    ::close(fd);
    TRY(util::write_file_atomically(candidate, text, mode & 0600));
    return candidate;
  }
  return make_error(ErrorCode::store_error, fmt::format("cannot name a backup of \"{}\" in {}", path, dir));
}

Result<std::optional<Record>> load_record(const std::string& path, std::string_view owner,
                                          const util::Environment& env)
{
  TRY_ASSIGN(const std::string file, record_path(path, owner, env));
  const std::optional<std::string> text = util::read_file(file);
  if (!text) {
    return std::optional<Record>();
  }
  const Json doc = Json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("path", std::string()) != path ||
      !doc.contains("edits") || !doc["edits"].is_array()) {
    return std::optional<Record>();
  }
  Record record;
  record.path = path;
  record.created_file = doc.value("created_file", false);
  if (doc.contains("created_dirs") && doc["created_dirs"].is_array()) {
    for (const Json& dir : doc["created_dirs"]) {
      if (dir.is_string()) {
        record.created_dirs.push_back(dir.get<std::string>());
      }
    }
  }
  for (const Json& item : doc["edits"]) {
    const auto kind = item.is_object() ? kind_of(item.value("kind", std::string())) : std::nullopt;
    if (!kind || !item.contains("path") || !item["path"].is_array()) {
      return std::optional<Record>();
    }
    Edit edit;
    edit.kind = *kind;
    for (const Json& key : item["path"]) {
      if (!key.is_string()) {
        return std::optional<Record>();
      }
      edit.path.push_back(key.get<std::string>());
    }
    edit.value = item.contains("value") ? item["value"] : Json();
    record.edits.push_back(std::move(edit));
  }
  return std::optional<Record>(std::move(record));
}

Result<void> save_record(const Record& record, std::string_view owner, const util::Environment& env)
{
  TRY_ASSIGN(const std::string file, record_path(record.path, owner, env));
  if (record.edits.empty() && !record.created_file) {
    return remove_file(file);
  }
  TRY(make_private_dir(std::filesystem::path(file).parent_path().string()));
  Json doc = Json::object();
  doc["path"] = record.path;
  doc["owner"] = std::string(owner);
  doc["created_file"] = record.created_file;
  if (!record.created_dirs.empty()) {
    doc["created_dirs"] = record.created_dirs;
  }
  doc["edits"] = Json::array();
  for (const Edit& edit : record.edits) {
    Json item = Json::object();
    item["kind"] = std::string(kind_name(edit.kind));
    item["path"] = edit.path;
    item["value"] = edit.value;
    doc["edits"].push_back(std::move(item));
  }
  return util::write_file_atomically(file, doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n",
                                     0600);
}

} // namespace mailroom::settingsfile
