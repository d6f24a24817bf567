#pragma once

// The sent view's renderings: the recipients summary of a sent message ("2/3 read, 1 awaiting
// ack") as text and JSON, and the sent table.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/views.hpp"
#include "render/table.hpp"
#include "text/display.hpp"

namespace mailroom::render {

// "<read>/<recipients> read", then ", <n> acked", ", <n> awaiting ack", ", <n> failed",
// ", <n> claimed", ", <n> handler failed", ", <n> set aside" for each that is not zero:
// "2/3 read, 1 awaiting ack", "0/2 read, 2 awaiting ack, 1 claimed, 1 set aside".
std::string summary_text(const mail::DeliverySummary& summary);

// {"recipients","read","archived","acked","awaiting_ack","failed","claimed","set_aside","handler_failed"}.
nlohmann::json summary_to_json(const mail::DeliverySummary& summary);

// The sent table: ID, TO (the addresses as written), SUBJECT, RECIPIENTS (summary_text), AGE.
// Cells are sanitised and capped like the inbox table's; fitted to `style` (render/table.hpp).
text::DisplayText render_sent_table(const std::vector<mail::ListedMessage>& messages, mail::UnixMillis now,
                                    const Style& style = {});

} // namespace mailroom::render
