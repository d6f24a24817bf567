#include "pg/host_memory.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "util/atomic_file.hpp"

namespace mailroom::pg {

namespace {

// FNV-1a, 64 bits: a stable file name for a URL (not a security measure: the directory is the
// user's own).
std::uint64_t fnv1a(const std::string& text)
{
  std::uint64_t hash = 1469598103934665603ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

bool make_directories(const std::string& path)
{
  for (std::size_t at = 1; at <= path.size(); ++at) {
    if (at == path.size() || path[at] == '/') {
      const std::string part = path.substr(0, at);
      if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) {
        return false;
      }
    }
  }
  return true;
}

std::string joined(const std::vector<std::string>& parts)
{
  std::string out;
  for (const std::string& part : parts) {
    out += out.empty() ? "" : ",";
    out += part;
  }
  return out;
}

} // namespace

std::optional<HostOrder> put_first(const HostList& list, const std::string& first)
{
  const std::size_t count = list.hosts.size();
  if (count < 2 || (list.ports.size() > 1 && list.ports.size() != count)) {
    return std::nullopt;
  }
  auto port_of = [&](std::size_t i) {
    return list.ports.empty() ? std::string("5432") : list.ports.size() == 1 ? list.ports[0] : list.ports[i];
  };
  for (std::size_t i = 0; i < count; ++i) {
    if (fmt::format("{}:{}", list.hosts[i], port_of(i)) != first) {
      continue;
    }
    if (i == 0) {
      return std::nullopt; // already first
    }
    std::vector<std::string> hosts{list.hosts[i]};
    std::vector<std::string> ports{port_of(i)};
    for (std::size_t j = 0; j < count; ++j) {
      if (j != i) {
        hosts.push_back(list.hosts[j]);
        ports.push_back(port_of(j));
      }
    }
    HostOrder order;
    order.hosts = joined(hosts);
    order.ports = list.ports.size() > 1 ? joined(ports) : (list.ports.empty() ? "" : list.ports[0]);
    return order;
  }
  return std::nullopt;
}

HostMemory::HostMemory(std::string directory, const std::string& url) : m_directory(std::move(directory))
{
  if (!m_directory.empty()) {
    m_file = fmt::format("{}/{:016x}", m_directory, fnv1a(url));
  }
}

std::optional<std::string> HostMemory::recall() const
{
  if (m_file.empty()) {
    return std::nullopt;
  }
  std::ifstream in(m_file);
  std::string line;
  if (!in || !std::getline(in, line) || line.empty() || line.size() > 1024) {
    return std::nullopt;
  }
  return line;
}

void HostMemory::remember(const std::string& host_port) const
{
  if (m_file.empty() || host_port.find('\n') != std::string::npos || recall() == host_port) {
    return;
  }
  if (!make_directories(m_directory)) {
    return;
  }
  // A memory that cannot be written is only a slower first connection next time.
  (void)util::write_file_atomically(m_file, host_port + "\n", 0600);
}

} // namespace mailroom::pg
