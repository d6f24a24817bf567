#include "testing/provider_contract.hpp"

#include "testing/provider_contract_schedules.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing {

void run_provider_contract(const ProviderMaker& make)
{
  contract::run_gc_cases(make);
  contract::run_state_cases(make);
  contract::run_recipient_cases(make);
  contract::run_registry_cases(make);
  contract::run_conversation_cases(make);
  contract::run_reply_effect_cases(make);
  contract::run_view_cases(make);
  contract::run_expiry_cases(make);
  contract::run_reqresp_cases(make);
  contract::run_claim_cases(make);
  contract::run_take_cases(make);
  contract::run_health_cases(make);
  contract::run_team_cases(make);
  contract::run_operator_cases(make);
  contract::run_sweep_cases(make);
  contract::run_list_cases(make);
  contract::run_preview_cases(make);
  contract::run_reach_cases(make);
  contract::run_search_cases(make);
  contract::run_transfer_cases(make);
  contract::run_event_cases(make);
  contract::run_request_cases(make);
  contract::run_request_life_cases(make);
  contract::run_stream_cases(make);
  contract::run_schedule_rule_cases(make);
  contract::run_schedule_firing_cases(make);
  contract::run_wake_cases(make);
  contract::run_wake_send_cases(make);
  contract::run_property_cases(make);
}

} // namespace mailroom::testing
