#include "render/delivery_json.hpp"

#include "mail/delivery_fields.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"

namespace mailroom::render {

nlohmann::json delivery_to_json(const mail::DeliveryStatus& delivery)
{
  nlohmann::json j = nlohmann::json::object();
  mail::for_each_delivery_field(
      [&](auto kind, const mail::DeliveryField& field, const auto& value) {
        constexpr mail::DeliveryFieldKind k = decltype(kind)::value;
        if (field.view != mail::DeliveryFieldView::shown) {
          return;
        }
        nlohmann::json& out = j[std::string(field.column)];
        if constexpr (k == mail::DeliveryFieldKind::name || k == mail::DeliveryFieldKind::text) {
          out = text::json_text(value);
        } else if constexpr (k == mail::DeliveryFieldKind::integer) {
          out = value;
        } else if constexpr (k == mail::DeliveryFieldKind::millis) {
          out = format_rfc3339(value);
        } else if constexpr (k == mail::DeliveryFieldKind::optional_millis) {
          out = value ? nlohmann::json(format_rfc3339(*value)) : nlohmann::json(nullptr);
        } else if constexpr (k == mail::DeliveryFieldKind::optional_name) {
          out = value ? nlohmann::json(text::json_text(*value)) : nlohmann::json(nullptr);
        } else if constexpr (k == mail::DeliveryFieldKind::ack_state) {
          out = std::string(mail::to_string(value));
        } else if constexpr (k == mail::DeliveryFieldKind::request_state) {
          out = value ? nlohmann::json(mail::to_string(*value)) : nlohmann::json(nullptr);
        } else {
          static_assert(mail::k_unhandled_delivery_field_kind<k>);
        }
      },
      delivery);
  j["claim"] = delivery.claim ? nlohmann::json({{"claimed_by", text::json_text(delivery.claim->claimed_by)},
                                                {"claim_until", format_rfc3339(delivery.claim->claim_until)},
                                                {"lease_left_ms", delivery.claim->lease_left_ms}})
                              : nlohmann::json(nullptr);
  return j;
}

} // namespace mailroom::render
