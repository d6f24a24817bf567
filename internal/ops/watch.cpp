#include "watch.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "errors.hpp"
#include "filters.hpp"
#include "mail/duration.hpp"
#include "render/json.hpp"
#include "store_open.hpp"
#include "util/interrupt.hpp"
#include "util/sleep.hpp"
#include "util/subprocess.hpp"
#include "wait.hpp"
#include "watch_loop.hpp"

namespace mailroom::ops {

Result<WatchEnd> watch(Session& session, const WatchRequest& request, const WatchEmit& emit)
{
  WatchSettings settings;
  settings.argv = request.argv;
  settings.env = request.env;
  settings.once = request.once;
  settings.claim.mailbox = session.me.name;
  settings.claim.watcher = request.watcher;
  TRY_ASSIGN(settings.claim.types, resolve_types(session, request.types));
  TRY_ASSIGN(settings.claim.from, mailbox_flag(request.from, "--from"));
  if (request.lease) {
    TRY_ASSIGN(settings.claim.lease_ms, mail::parse_duration(*request.lease, "--lease"));
  }
  if (request.handler_timeout) {
    TRY_ASSIGN(settings.handler_timeout_ms,
               mail::parse_duration(*request.handler_timeout, "--handler-timeout"));
  }
  if (request.cancel_grace) {
    TRY_ASSIGN(settings.cancel_grace_ms, mail::parse_duration(*request.cancel_grace, "--cancel-grace"));
  }
  if (settings.claim.lease_ms <= 0 || settings.handler_timeout_ms <= 0 || settings.cancel_grace_ms < 0) {
    return usage_error("--lease and --handler-timeout must be longer than 0, --cancel-grace not negative");
  }
  if (request.max_attempts < 1) {
    return usage_error(fmt::format("--max-attempts must be at least 1, not {}", request.max_attempts));
  }
  settings.claim.max_attempts = request.max_attempts;
  if (request.argv.empty() ||
      !util::can_execute(request.argv.front(), session.env.get("PATH").value_or(""))) {
    return usage_error(fmt::format("cannot run \"{}\": not found or not executable",
                                   request.argv.empty() ? std::string() : request.argv.front()),
                       "give a program on $PATH or a path to an executable file after --exec");
  }
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> watch, util::InterruptWatch::install());
  util::InterruptWatch& interrupt = *watch;
  // A store locked or a server down when watch starts is waited for, as once it runs; anything
  // else (no store, a bad config) ends watch.
  TRY_ASSIGN(const StoreOpen opened, open_store_when_up(session, std::nullopt, interrupt.fd()));
  if (opened.interrupted) {
    return WatchEnd{interrupt.received()};
  }
  mail::Provider* provider = opened.provider;
  if (provider->facets().claims == nullptr) {
    return make_error(
        ErrorCode::unsupported,
        "watch needs claims, which this provider does not have (the exec script protocol has none)",
        "use the beads provider (or PostgreSQL) for watch; 'mailroom wait' works everywhere");
  }
  Watcher watcher(session, *provider, std::move(settings), interrupt, emit);
  return watcher.run();
}

nlohmann::json to_json(const WatchEvent& event)
{
  nlohmann::json doc = render::json_document();
  doc.update(event.fields);
  return doc;
}

text::DisplayText to_text(const WatchEvent& event, const render::Style& /*style*/)
{
  return event.text + text::DisplayText("\n");
}

} // namespace mailroom::ops
