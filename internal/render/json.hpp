#pragma once

// The contract's JSON shapes. Every document carries "schema_version": 1; keys are only ever added.
// Strings are emitted with every control character escaped; invalid UTF-8 becomes U+FFFD.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/provider.hpp"

namespace mailroom::render {

using mail::Agent;
using mail::DeliveryStatus;
using mail::Mailbox;
using mail::Message;
using mail::Priority;
using mail::UnixMillis;

// {"id","from","to":[…],"cc":[…],"subject","body","created_at","read","archived","thread_id",
//  "reply_to" (or null),"priority","type"}
nlohmann::json message_to_json(const Message& message);

// A new document {"schema_version":1}.
nlohmann::json json_document();

// {"schema_version":1,"ok":false,"error":{"code","message","exit_code", + "hint","input",
//  "valid_shapes","suggestions" for recipient errors}}
nlohmann::json error_to_json(const Error& error);

// Serialises `doc` as one line plus '\n', replacing invalid UTF-8 instead of throwing.
std::string dump_json(const nlohmann::json& doc);
// The same for a document whose keys keep their insertion order (export lines).
std::string dump_json(const nlohmann::ordered_json& doc);

} // namespace mailroom::render
