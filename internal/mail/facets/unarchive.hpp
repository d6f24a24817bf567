#pragma once

// The unarchive facet, a facet whose presence is the fact: the store is known to bring an
// archived delivery back to the inbox (Provider::change with Change::unarchive). Without it
// (Facets::unarchive null) change(unarchive) is still asked — an exec script may have the op
// without declaring it — and answers unsupported when the store cannot. The exec provider has it
// when its script's cached `capabilities` answer lists `unarchive` (providers/exec/facts.hpp).

namespace mailroom::mail {

class Unarchive {
protected:
  ~Unarchive() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
