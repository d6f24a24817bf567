// The API's route table (docs/http-api.md "Endpoints"): one row per method and path under /api/v1,
// naming its endpoint, the arguments it takes and who may call it. A new route is a row here and
// an endpoint in endpoints_*.cpp.

#include <array>

#include "endpoints.hpp"
#include "route.hpp"

namespace mailroom::http {

namespace {

constexpr std::array k_routes = {
    RouteSpec{"POST", "session", login, login_args, Auth::none},
    RouteSpec{"GET", "session", session_info, no_args},
    RouteSpec{"POST", "login-codes", login_code, no_args, Auth::token},
    RouteSpec{"GET", "team", team, no_args},
    RouteSpec{"GET", "peers", peers, view_args},
    RouteSpec{"GET", "mailboxes", mailboxes, no_args},
    RouteSpec{"GET", "mailboxes/{name}/messages", mailbox_messages, mailbox_messages_args},
    RouteSpec{"GET", "messages/{id}", message, view_args},
    RouteSpec{"GET", "threads/{id}", thread, view_args},
    RouteSpec{"GET", "status/{id}", status, no_args},
    RouteSpec{"GET", "traces", traces, traces_args},
    RouteSpec{"GET", "traces/{id}", trace, view_args},
    RouteSpec{"GET", "search", search, search_args},
    RouteSpec{"GET", "events", events, events_args},
    RouteSpec{"POST", "messages", send, send_args},
    RouteSpec{"POST", "archive", archive_matching, archive_matching_args},
    RouteSpec{"POST", "messages/{id}/reply", reply, reply_args},
    RouteSpec{"POST", "messages/{id}/read", change, change_args},
    RouteSpec{"POST", "messages/{id}/unread", change, change_args},
    RouteSpec{"POST", "messages/{id}/archive", change, change_args},
    RouteSpec{"POST", "messages/{id}/unarchive", change, change_args},
    RouteSpec{"POST", "messages/{id}/delete", change, change_args},
    RouteSpec{"POST", "messages/{id}/ack", change, change_args},
    RouteSpec{"POST", "messages/{id}/cancel", cancel, cancel_args},
    RouteSpec{"POST", "messages/{id}/decline", decline, reason_args},
    RouteSpec{"POST", "messages/{id}/ask", ask, ask_args},
    RouteSpec{"POST", "messages/{id}/fail", fail, reason_args},
    RouteSpec{"GET", "schedules", schedule_list, schedule_list_args},
    RouteSpec{"POST", "schedules", schedule_add, schedule_add_args},
    RouteSpec{"GET", "schedules/{from}/{name}", schedule_show, schedule_show_args},
    RouteSpec{"POST", "schedules/{from}/{name}/pause", schedule_pause, no_args},
    RouteSpec{"POST", "schedules/{from}/{name}/resume", schedule_resume, no_args},
    RouteSpec{"POST", "schedules/{from}/{name}/cancel", schedule_cancel, schedule_cancel_args},
    RouteSpec{"POST", "schedules/{from}/{name}/run-now", schedule_run_now, no_args},
};

} // namespace

std::span<const RouteSpec> api_routes()
{
  return k_routes;
}

} // namespace mailroom::http
