#pragma once

// The unarchive facet, a facet whose presence is the fact: the store brings an archived delivery
// back to the inbox (Provider::change with Change::unarchive). Without it (Facets::unarchive
// null) change(unarchive) is still asked — an exec script may have the op without declaring it —
// and answers unsupported when the store cannot. The exec provider has it unless its script's
// cached facts say the script lacks it (providers/exec/script.hpp, Script::lacks_extension).

namespace mailroom::mail {

class Unarchive {
protected:
  ~Unarchive() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
