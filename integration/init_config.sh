#!/usr/bin/env bash
# integration/init_config.sh: init writes a commented config and a 0700 .mailroom; config shows origins
. "$(dirname "$0")/common.sh"
mailroom init > /dev/null
[ -f mailroom.toml ] && [ "$(stat -c %a .mailroom)" = 700 ]
grep -q '^# ' mailroom.toml
cp mailroom.toml "$t/before"
mailroom init | grep -q '^Already initialised'
cmp -s mailroom.toml "$t/before"
MAILROOM_PROVIDER=beads GC_ALIAS=mayor mailroom config > "$t/out"
grep -E '^identity +mayor +env GC_ALIAS$' "$t/out"
grep -E '^mail.provider +beads +env MAILROOM_PROVIDER$' "$t/out"
grep -E '^store.synchronous +full +mailroom.toml:[0-9]+$' "$t/out"
mailroom --db "$t/x.db" config | grep -E '^store.path +.*x.db +flag --db$'
