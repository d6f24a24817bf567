#!/usr/bin/env bash
# mailroom serve: the API on the store the CLI uses. A CLI send is in the API's boxes (rig%2Fname
# included) with the CLI's JSON; a send, a read and an archive through the API change what the
# CLI shows; views record no presence and change nothing; errors have the contract's statuses.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/serve_common.bash"
source "$(dirname "$0")/serve_api_suite.bash"
