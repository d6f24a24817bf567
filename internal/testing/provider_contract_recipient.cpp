#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

void run_recipient_cases(const ProviderMaker& /*make*/) {}

} // namespace mailroom::testing::contract
