#pragma once

// The change signal facet: the store can wake a waiter when it may have changed. A store without
// it (Facets::signals null) is polled.

#include <memory>

#include "base/result.hpp"
#include "mail/signal.hpp"

namespace mailroom::mail {

class Signals {
public:
  // A new signal that fires when the store may have changed (a hint: re-read after it); nullptr
  // when this store's connection cannot watch after all (callers then poll).
  virtual Result<std::unique_ptr<ChangeSignal>> change_signal() = 0;

protected:
  ~Signals() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
