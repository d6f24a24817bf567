#include "pg/url_options.hpp"

#include <algorithm>

#include "text/strings.hpp"

namespace mailroom::pg {

UrlOptions take_url_options(std::string_view url)
{
  UrlOptions out;
  out.url = std::string(url);
  const bool is_url = text::starts_with(url, "postgresql://") || text::starts_with(url, "postgres://");
  const std::size_t query = url.find('?');
  if (!is_url || query == std::string_view::npos) {
    return out;
  }
  std::string kept;
  bool changed = false;
  std::string_view params = url.substr(query + 1);
  while (!params.empty()) {
    const std::size_t end = std::min(params.find('&'), params.size());
    const std::string_view param = params.substr(0, end);
    params.remove_prefix(std::min(end + 1, params.size()));
    if (param == "pooler=transaction" || param == "pooler=none" || param == "pooler=session") {
      out.transaction_pooler = param == "pooler=transaction";
      changed = true;
      continue;
    }
    kept += kept.empty() ? "" : "&";
    kept += param;
  }
  if (changed) {
    out.url = std::string(url.substr(0, query));
    if (!kept.empty()) {
      out.url += "?" + kept;
    }
  }
  return out;
}

} // namespace mailroom::pg
