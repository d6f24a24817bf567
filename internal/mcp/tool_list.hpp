#pragma once

// The tool table, assembled from one group per source file.

#include <vector>

#include "mcp/tools.hpp"

namespace mailroom::mcp {

void add_view_tools(std::vector<ToolDef>& tools);     // tools_views.cpp
void add_object_tools(std::vector<ToolDef>& tools);   // tools_objects.cpp: read, peek, thread, status, trace
void add_change_tools(std::vector<ToolDef>& tools);   // tools_changes.cpp
void add_send_tools(std::vector<ToolDef>& tools);     // tools_send.cpp
void add_wait_tools(std::vector<ToolDef>& tools);     // tools_wait.cpp
void add_team_tools(std::vector<ToolDef>& tools);     // tools_team.cpp
void add_request_tools(std::vector<ToolDef>& tools);  // tools_requests.cpp: cancel, decline, ask, fail
void add_schedule_tools(std::vector<ToolDef>& tools); // tools_schedules.cpp
void add_wake_tools(std::vector<ToolDef>& tools);     // tools_wake.cpp: wake_status

} // namespace mailroom::mcp
