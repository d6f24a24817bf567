#pragma once

// The stored fields of a message, written once: for each, its key (in the message JSON and in the
// export record, which use the same keys), its SQL column, its kind and its mail::Message member.
// Every consumer iterates this table instead of naming fields: the stores' message columns and
// insert (providers/sqlstore: sql_rules.hpp, message_sql.hpp, rows.cpp), the message JSON
// (render/json.cpp), export and import (render/transfer.cpp) and import's comparison
// (mail/transfer.cpp). docs/store.md "Adding a message field" lists what a new field touches.
//
// Fields not in the table are derived, not stored: body_complete/cut_body_bytes (from the body's
// length column), expired (from expires_at and now) and the viewer's delivery state; and
// schedule/slot, kept in a table of their own beside the few messages a schedule sent (a column
// of `beads` after the body would cost every list a walk through large bodies, and a rebuild is
// not additive).

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "mail/message.hpp"

namespace mailroom::mail {

// How a field is held, stored and written. The member type follows from the kind.
enum class FieldKind {
  text,            // std::string; TEXT; JSON string (sanitised in the message JSON, "<key>_b64" in
                   // an export record when not UTF-8)
  name,            // std::string of a mailbox; like text, but an export record writes it as is
  hex,             // std::string of hex digits (trace ids); written as is everywhere
  optional_hex,    // std::optional<std::string> of hex digits; NULL and null when absent
  optional_text,   // std::optional<std::string>; like text, NULL and null when absent
  names,           // std::vector<std::string>; TEXT, newline-joined; JSON array of strings
  body,            // std::string of raw bytes: BLOB plus body_bytes and preview (the stores read
                   // a cut body and its length); JSON like text
  millis,          // UnixMillis; INTEGER; JSON RFC 3339 time
  optional_millis, // std::optional<UnixMillis>; NULL and null when absent
  priority,        // Priority; INTEGER 0..4; JSON integer
  integer,         // std::int64_t; INTEGER; JSON integer
};

// Whether the message JSON (render::message_to_json) shows a field; an export record has them all.
enum class FieldView { shown, export_only };

// The table, in column order (which is also the export record's key order). A row is
// X(key, column, kind, member, view, ...): `key` the JSON key, `column` the SQL column of `beads`
// and `messages`, `kind` a FieldKind, `member` the path of the mail::Message member, `view` a
// FieldView; the macro's extra arguments are passed on to every row. It is a macro so that the
// stores can splice the column names into their SQL string literals at compile time.
// clang-format off
#define MR_MESSAGE_FIELDS(X, ...)                                                                            \
  X(id,             id,             text,            id,                   shown,       __VA_ARGS__)         \
  X(from,           sender,         name,            from,                 shown,       __VA_ARGS__)         \
  X(to,             to_list,        names,           to,                   shown,       __VA_ARGS__)         \
  X(cc,             cc_list,        names,           cc,                   shown,       __VA_ARGS__)         \
  X(addressed_to,   addressed_to,   names,           addressed_to,         shown,       __VA_ARGS__)         \
  X(subject,        subject,        text,            subject,              shown,       __VA_ARGS__)         \
  X(body,           body,           body,            body,                 shown,       __VA_ARGS__)         \
  X(created_at,     created_at,     millis,          created_at,           shown,       __VA_ARGS__)         \
  X(thread_id,      thread_id,      text,            thread_id,            shown,       __VA_ARGS__)         \
  X(reply_to,       reply_to,       optional_text,   reply_to,             shown,       __VA_ARGS__)         \
  X(priority,       priority,       priority,        priority,             shown,       __VA_ARGS__)         \
  X(type,           type,           text,            type,                 shown,       __VA_ARGS__)         \
  X(trace_id,       trace_id,       hex,             trace.trace_id,       shown,       __VA_ARGS__)         \
  X(span_id,        span_id,        hex,             trace.span_id,        shown,       __VA_ARGS__)         \
  X(parent_span_id, parent_span_id, optional_hex,    trace.parent_span_id, shown,       __VA_ARGS__)         \
  X(expires_at,     expires_at,     optional_millis, expires_at,           shown,       __VA_ARGS__)         \
  X(dedup_key,      dedup_key,      optional_text,   dedup_key,            shown,       __VA_ARGS__)         \
  X(sender_uid,     sender_uid,     integer,         sender_uid,           export_only, __VA_ARGS__)         \
  X(sender_host,    sender_host,    text,            sender_host,          export_only, __VA_ARGS__)
// clang-format on

// One row of the table without its member.
struct MessageField {
  std::string_view key;    // the JSON key of the message JSON and the export record
  std::string_view column; // the SQL column
  FieldKind kind;
  FieldView view;
};

#define MR_MESSAGE_FIELD_ROW(key, column, kind, member, view, ...)                                           \
  MessageField{#key, #column, FieldKind::kind, FieldView::view},
inline constexpr std::array k_message_fields = {MR_MESSAGE_FIELDS(MR_MESSAGE_FIELD_ROW)};
#undef MR_MESSAGE_FIELD_ROW

// The kind of a field as a type, so that a visitor picks its code at compile time.
template <FieldKind K> using FieldKindTag = std::integral_constant<FieldKind, K>;

// Calls `f(FieldKindTag<kind>{}, field, member...)` for every row, in table order, where each
// `member` is the field's member of one of `messages` (const when that message is): one message to
// read or write a message, two to compare. Test a kind with `decltype(tag)::value`.
template <typename F, typename... M> constexpr void for_each_message_field(F&& f, M&... messages)
{
  static_assert((std::is_same_v<std::remove_const_t<M>, Message> && ...));
  std::size_t row = 0;
#define MR_MESSAGE_FIELD_VISIT(key, column, kind, member, view, ...)                                         \
  f(FieldKindTag<FieldKind::kind>{}, k_message_fields[row++], messages.member...);
  MR_MESSAGE_FIELDS(MR_MESSAGE_FIELD_VISIT)
#undef MR_MESSAGE_FIELD_VISIT
}

// The number of fields of `kind` (to size per-kind scratch space).
constexpr std::size_t count_message_fields(FieldKind kind)
{
  std::size_t n = 0;
  for (const MessageField& field : k_message_fields) {
    n += field.kind == kind ? 1 : 0;
  }
  return n;
}

// For a visitor's final `else`: fails to compile when a kind has no branch.
template <FieldKind K> inline constexpr bool k_unhandled_field_kind = false;

} // namespace mailroom::mail
