#pragma once

// Store connections kept open between the requests of a server (the MCP server, `serve`): a
// request takes one no other request is using (each request on its own connection, its own
// ops::Session) and gives it back when it ends well; one that failed with a store error is
// closed instead. Opening is `open`'s (the identity guard applied there).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "base/result.hpp"
#include "mail/provider.hpp"

namespace mailroom::ops {

class ConnectionPool {
public:
  using Open = std::function<Result<std::unique_ptr<mail::Provider>>()>;
  explicit ConnectionPool(Open open, std::size_t keep = 16) : m_open(std::move(open)), m_keep(keep) {}
  // An idle connection, or a new one. Errors: `open`'s.
  Result<std::unique_ptr<mail::Provider>> take();
  // Keeps `provider` for a later request (closed when `keep` are already idle).
  void give_back(std::unique_ptr<mail::Provider> provider);
  // Closes every idle connection, so the next take() opens the store now at its path (one was
  // replaced under the server: a connection keeps reading the file it opened). A caller does
  // not give back a connection it took in an earlier generation.
  void renew();
  // How many times renew() ran.
  std::uint64_t generation() const { return m_generation.load(); }
  // True when a request that ended with `error` may give its connection back (not after a
  // store or provider failure, which may have left the connection unusable).
  static bool reusable_after(const Error& error)
  {
    return error.code != ErrorCode::store_error && error.code != ErrorCode::provider_error;
  }

private:
  Open m_open;
  std::size_t m_keep;
  std::mutex m_mutex;
  std::vector<std::unique_ptr<mail::Provider>> m_idle;
  std::atomic<std::uint64_t> m_generation{0};
};

} // namespace mailroom::ops
