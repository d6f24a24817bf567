#pragma once

// The typed settings a provider is built from. config/ fills them; the provider factory
// (providers/factory.hpp) consumes them. No TOML here.

#include <chrono>
#include <optional>
#include <string>

#include "mail/limits.hpp"
#include "mail/policy.hpp"

namespace mailroom::mail {

// What the command about to run will do with the store.
enum class Access {
  read,    // reads only: open read-only, never create anything (presence may write, rarely)
  write,   // changes mail: open read-write; the store must exist
  create,  // `init`: create the store (and its directory) when missing
  migrate, // `migrate`: like write, and may run the migrations that rewrite rows (init may too)
};

struct StoreSettings {
  std::string path;             // the SQLite file, ":memory:", or a postgresql:// URL
  bool synchronous_full = true; // PRAGMA synchronous=FULL (false: NORMAL)
  std::chrono::milliseconds busy_timeout = k_default_busy_timeout;
  bool allow_network_fs = false; // refuse NFS/SMB/FUSE unless true (with a warning)
  // PostgreSQL: the client's bound on any wait for the server ([store] timeout; the hook: its
  // budget), and whether a transaction-pooling pooler is in front of it ([store] pooler).
  std::chrono::milliseconds timeout = k_default_store_timeout;
  bool transaction_pooler = false;
  Access access = Access::write;
  // The bead store: each connection's page cache in KiB; nullopt: SQLite's default (2 MiB). A
  // process that keeps many connections open for long (`serve`) bounds it.
  std::optional<std::int64_t> cache_kib;
};

struct ExecSettings {
  std::string command; // what follows "exec:", used verbatim (execvp lookup)
  std::chrono::milliseconds timeout = k_default_exec_timeout;
  std::size_t output_cap = k_exec_output_cap;
};

struct ProviderSettings {
  std::string kind = "beads"; // the scheme: "beads", "exec" or "postgresql"
  StoreSettings store;
  ExecSettings exec;
  MailPolicy policy;
};

} // namespace mailroom::mail
