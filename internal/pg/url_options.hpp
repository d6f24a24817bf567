#pragma once

// mailroom's own options carried in a store URL's query, which libpq must never see.

#include <string>
#include <string_view>

namespace mailroom::pg {

struct UrlOptions {
  std::string url;                 // the URL without mailroom's own parameters (for libpq)
  bool transaction_pooler = false; // pooler=transaction was in the query
};

// Takes `pooler=transaction` (also `pooler=none`, `pooler=session`: no pooler that needs care)
// out of a postgresql:// URL's query, keeping every other parameter in order; a keyword string
// or a URL without it comes back unchanged. Never fails: any other pooler= value is left for
// libpq, which reports it as an invalid option.
UrlOptions take_url_options(std::string_view url);

} // namespace mailroom::pg
