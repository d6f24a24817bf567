#pragma once

// The typed settings a provider is built from. Config (config.hpp) fills them; the provider
// factory (providers/factory.hpp) consumes them. No TOML here.

#include <chrono>
#include <string>

namespace mailroom::mail {

struct StoreSettings {
  std::string path;                      // the SQLite file, or ":memory:"
  bool synchronous_full = true;          // PRAGMA synchronous=FULL (false: NORMAL)
  std::string id_prefix = "mr";          // ids look like "<prefix>-<hash>"
  std::chrono::milliseconds busy_timeout{5000};
  bool allow_network_fs = false;         // refuse NFS/SMB/FUSE unless true (with a warning)
  bool create = true;                    // create the file and its directory when missing
};

struct ExecSettings {
  std::string command;                   // what follows "exec:", used verbatim (execvp lookup)
  std::chrono::milliseconds timeout{30000};
  std::size_t output_cap = 16U * 1024U * 1024U;
};

struct ProviderSettings {
  std::string kind = "beads"; // "beads" or "exec"
  StoreSettings store;
  ExecSettings exec;
};

} // namespace mailroom::mail
