#include "server_file.hpp"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "auth.hpp"
#include "util/file_read.hpp"

namespace mailroom::http {

std::string server_file_path(const std::string& token_path)
{
  constexpr std::string_view suffix = ".token";
  std::string path = token_path;
  if (path.ends_with(suffix)) {
    path.resize(path.size() - suffix.size());
  }
  return path + ".port";
}

Result<void> write_server_file(const std::string& path, const ServerFile& file)
{
  const nlohmann::json doc{
      {"pid", file.pid}, {"address", file.address}, {"port", file.port}, {"host", file.host}};
  return write_private_file(path, doc.dump() + "\n");
}

std::optional<ServerFile> read_server_file(const std::string& path)
{
  const std::optional<std::string> text = util::read_file(path, 4096);
  if (!text) {
    return std::nullopt;
  }
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("port") || !doc["port"].is_number_unsigned() ||
      !doc.value("address", nlohmann::json()).is_string() ||
      !doc.value("host", nlohmann::json()).is_string()) {
    return std::nullopt;
  }
  ServerFile file;
  file.pid = doc.value("pid", std::int64_t{0});
  file.address = doc["address"].get<std::string>();
  file.port = doc["port"].get<std::uint16_t>();
  file.host = doc["host"].get<std::string>();
  return file;
}

void remove_server_file(const std::string& path, std::int64_t pid)
{
  const std::optional<ServerFile> file = read_server_file(path);
  if (file && file->pid == pid) {
    ::unlink(path.c_str());
  }
}

} // namespace mailroom::http
