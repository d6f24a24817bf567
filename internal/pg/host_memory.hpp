#pragma once

// Failover without waiting on a dead host first (contract "Several hosts, for real"): a store
// URL may name several hosts (postgresql://a:5432,b:5432/mail?target_session_attrs=read-write, or
// host=a,b in a keyword string), which libpq tries in order. After a failover the first host may
// be down or unreachable, and every command would wait on it for connect_timeout before trying
// the next. So mailroom remembers, per URL, the host that last accepted a read-write session and
// tries it first.
//
// The memory is one small file per URL in a directory ($XDG_CACHE_HOME/mailroom/pg-hosts),
// named by a hash of the URL's text, holding "host:port"; written atomically (a temporary file
// renamed over it); a file that is missing, unreadable or names no host of the URL is ignored.

#include <optional>
#include <string>
#include <vector>

namespace mailroom::pg {

// The host list of a connection string as libpq parsed it ("host" and "port" values: comma
// separated; a single port applies to every host).
struct HostList {
  std::vector<std::string> hosts;
  std::vector<std::string> ports; // empty, one, or one per host
};

// The hosts and ports with `first` ("host:port") moved to the front, as libpq's host= and port=
// values; nullopt when the list has under two hosts or `first` is none of them.
struct HostOrder {
  std::string hosts;
  std::string ports; // empty when the connection string gave none
};
std::optional<HostOrder> put_first(const HostList& list, const std::string& first);

class HostMemory {
public:
  // `directory` empty: remembers nothing.
  HostMemory(std::string directory, const std::string& url);

  // The remembered "host:port", or nullopt.
  std::optional<std::string> recall() const;
  // Remembers "host:port" (atomically; failures are ignored: it is only a hint).
  void remember(const std::string& host_port) const;

  const std::string& file() const { return m_file; }

private:
  std::string m_directory;
  std::string m_file;
};

} // namespace mailroom::pg
