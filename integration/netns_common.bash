#!/usr/bin/env bash
# integration/netns_common.bash: sourced (after common.sh) by the integration/hosts_*.sh scripts.
# Several hosts on one machine, for real: network namespaces joined by veth links to a bridge in a
# "switch" namespace, each host with its own address in a /24 that is unique to this run (names
# and addresses derive from the shell's pid), all removed by the EXIT trap however the test ends.
# PostgreSQL servers run on database hosts as the postgres user; mailroom runs on agent hosts.
# Skips (exit 125, saying why) where namespaces cannot be made (not root, no CAP_SYS_ADMIN, no ip).
#
#   net_host NAME N        a host NAME (namespace "$net_prefix-NAME") at address $(net_addr N)
#   net_addr N             10.B.C.N (this run's block)
#   on NAME CMD...         runs CMD on host NAME (ip netns exec; the environment is kept)
#   net_cut NAME | net_heal NAME      the host's link down / up at the switch (a dead link:
#                          packets vanish, nothing is refused)
#   net_drop NAME | net_undrop NAME   an nftables drop rule for the host's traffic at the switch
#   pg_start NAME PORT [standby-of-NAME]   a server on host NAME (initdb, or pg_basebackup from
#                          the primary for a streaming standby); data in $net_tmp/pg-NAME
#   pg_kill NAME           kill -9 of the server's postmaster (its children die with it)
#   pg_promote NAME        pg_ctl promote, waiting until it accepts writes
#   psql_on NAME PORT SQL  runs SQL in database mail on that server (from the host itself)

command -v ip > /dev/null || skip "no ip command (iproute2): cannot build network namespaces"
[ "$(id -u)" -eq 0 ] || skip "network namespaces need root (CAP_SYS_ADMIN); run as root to test several hosts"
net_prefix="mr$((($$ % 9000) + 1000))"
net_block="10.$((($$ % 200) + 20)).$((RANDOM % 250))"
# The server's user must reach its data directory: not under this test's private $t.
net_tmp=$(mktemp -d "/tmp/mrnet-$test_name.XXXXXX")
chmod 755 "$net_tmp"
net_hosts=()

pg_bindir=${MAILROOM_PG_BINDIR:-$(printf '%s\n' /usr/lib/postgresql/*/bin | grep -v '\*' | sort -V | tail -n 1)}
[ -x "$pg_bindir/initdb" ] || { echo "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin: run make deps" >&2; exit 1; }

net_cleanup() {
  local status=$1 ns pid
  jobs -p | xargs -r kill 2> /dev/null || true
  # Every process still in one of our namespaces (servers, stray clients), then the namespaces.
  for ns in "${net_hosts[@]}" "$net_prefix-sw"; do
    for pid in $(ip netns pids "$ns" 2> /dev/null); do kill -KILL "$pid" 2> /dev/null || true; done
  done
  sleep 0.1
  for ns in "${net_hosts[@]}" "$net_prefix-sw"; do ip netns del "$ns" 2> /dev/null || true; done
  rm -rf "$net_tmp"
  if [ "$status" -eq 0 ]; then rm -rf "$t"; fi
}
trap 'net_cleanup $?' EXIT

if ! err=$(ip netns add "$net_prefix-sw" 2>&1); then
  skip "cannot create a network namespace here ($err)"
fi
ip -n "$net_prefix-sw" link add br0 type bridge forward_delay 0
ip -n "$net_prefix-sw" link set br0 up
ip -n "$net_prefix-sw" link set lo up

net_addr() { echo "$net_block.$1"; }

net_host() {
  local name=$1 n=$2 ns="$net_prefix-$1"
  ip netns add "$ns"
  net_hosts+=("$ns")
  ip link add eth0 netns "$ns" type veth peer name "$name" netns "$net_prefix-sw"
  ip -n "$net_prefix-sw" link set "$name" master br0 up
  ip -n "$ns" addr add "$(net_addr "$n")/24" dev eth0
  ip -n "$ns" link set lo up
  ip -n "$ns" link set eth0 up
}

on() {
  local name=$1
  shift
  ip netns exec "$net_prefix-$name" "$@"
}

net_cut() { ip -n "$net_prefix-sw" link set "$1" down; }
# Up again, and every host forgets the neighbours it failed to reach meanwhile (else "no route to
# host" until the kernel retries them).
net_heal() {
  local ns
  ip -n "$net_prefix-sw" link set "$1" up
  for ns in "${net_hosts[@]}"; do ip -n "$ns" neigh flush all 2> /dev/null || true; done
}
net_drop() {
  ip netns exec "$net_prefix-sw" nft add table bridge mrcut 2> /dev/null || true
  ip netns exec "$net_prefix-sw" nft add chain bridge mrcut forward '{ type filter hook forward priority 0; }' 2> /dev/null || true
  ip netns exec "$net_prefix-sw" nft add rule bridge mrcut forward iifname "$1" drop
  ip netns exec "$net_prefix-sw" nft add rule bridge mrcut forward oifname "$1" drop
}
net_undrop() {
  local ns
  ip netns exec "$net_prefix-sw" nft flush chain bridge mrcut forward
  for ns in "${net_hosts[@]}"; do ip -n "$ns" neigh flush all 2> /dev/null || true; done
}

# Run from / : the server's user cannot enter this test's private directories.
as_pg() { (cd / && runuser -u postgres -- "$@"); }

pg_start() {
  local name=$1 port=$2 primary=${3:-} data="$net_tmp/pg-$1"
  mkdir -p "$net_tmp/$name"
  chown postgres "$net_tmp/$name"
  mkdir -p "$data"
  chown postgres "$data"
  chmod 700 "$data"
  if [ -z "$primary" ]; then
    as_pg "$pg_bindir/initdb" -D "$data" -U postgres -A trust --no-sync > "$net_tmp/initdb-$name.log" 2>&1 ||
      { cat "$net_tmp/initdb-$name.log" >&2; return 1; }
    {
      echo "listen_addresses = '$(net_addr "$(net_host_number "$name")")'"
      echo "port = $port"
      echo "unix_socket_directories = '$net_tmp/$name'"
      echo "max_connections = 200"
      echo "fsync = off"
      echo "wal_level = replica"
      echo "max_wal_senders = 4"
      echo "wal_keep_size = '64MB'"
      echo "hot_standby = on"
    } >> "$data/postgresql.conf"
    echo "host all all $net_block.0/24 trust" >> "$data/pg_hba.conf"
    echo "host replication all $net_block.0/24 trust" >> "$data/pg_hba.conf"
  else
    local primary_port=${net_ports[$primary]}
    (cd / && on "$name" runuser -u postgres -- "$pg_bindir/pg_basebackup" -h "$(net_addr "$(net_host_number "$primary")")" \
      -p "$primary_port" -U postgres -D "$data" -R -X stream -c fast) > "$net_tmp/basebackup-$name.log" 2>&1 ||
      { cat "$net_tmp/basebackup-$name.log" >&2; return 1; }
    sed -i "s/^listen_addresses = .*/listen_addresses = '$(net_addr "$(net_host_number "$name")")'/; s/^port = .*/port = $port/" \
      "$data/postgresql.conf"
    echo "unix_socket_directories = '$net_tmp/$name'" >> "$data/postgresql.conf"
    # Its name on the primary (synchronous_standby_names).
    sed -i "s/^primary_conninfo = '/primary_conninfo = 'application_name=$name /" "$data/postgresql.auto.conf"
  fi
  net_ports[$name]=$port
  (cd / && on "$name" runuser -u postgres -- "$pg_bindir/pg_ctl" -D "$data" -l "$net_tmp/$name/server.log" -w -t 30 start > /dev/null) ||
    { cat "$net_tmp/$name/server.log" >&2; return 1; }
}

pg_kill() {
  local pid
  pid=$(head -n 1 "$net_tmp/pg-$1/postmaster.pid")
  kill -KILL "$pid"
  # The backends go when they notice the postmaster is gone; kill them too (a dead machine).
  for pid in $(ip netns pids "$net_prefix-$1"); do kill -KILL "$pid" 2> /dev/null || true; done
}

pg_promote() {
  (cd / && on "$1" runuser -u postgres -- "$pg_bindir/pg_ctl" -D "$net_tmp/pg-$1" -w -t 30 promote > /dev/null)
}

psql_on() {
  local name=$1 port=$2
  shift 2
  on "$name" psql -X -q -v ON_ERROR_STOP=1 -h "$(net_addr "$(net_host_number "$name")")" -p "$port" -U postgres \
    -d mail -At -c "$*"
}

declare -A net_numbers=() net_ports=()
net_host_number() { echo "${net_numbers[$1]}"; }
# net_host, remembering the number for pg_start and psql_on.
net_add() {
  net_numbers[$1]=$2
  net_host "$1" "$2"
}

# pgbouncer_start NAME PORT PG_PORT MODE: PgBouncer on host NAME at PORT in front of the server
# at PG_PORT on the same host, pool_mode MODE (transaction or session), trust authentication.
pgbouncer_start() {
  local name=$1 port=$2 pg_port=$3 mode=$4 dir="$net_tmp/pgbouncer-$1"
  command -v pgbouncer > /dev/null || { echo "pgbouncer is missing: run make deps" >&2; exit 1; }
  mkdir -p "$dir"
  printf '"postgres" ""\n' > "$dir/users.txt"
  cat > "$dir/pgbouncer.ini" <<INI
[databases]
mail = host=$(net_addr "$(net_host_number "$name")") port=$pg_port dbname=mail
[pgbouncer]
listen_addr = $(net_addr "$(net_host_number "$name")")
listen_port = $port
unix_socket_dir = $dir
auth_type = trust
auth_file = $dir/users.txt
pool_mode = $mode
max_client_conn = 1000
default_pool_size = 10
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
  chown -R postgres "$dir"
  (cd / && on "$name" runuser -u postgres -- pgbouncer -d "$dir/pgbouncer.ini")
  for _ in $(seq 1 50); do
    on "$name" bash -c "exec 3<>/dev/tcp/$(net_addr "$(net_host_number "$name")")/$port" 2> /dev/null && return 0
    sleep 0.1
  done
  echo "pgbouncer did not start" >&2
  cat "$dir/pgbouncer.log" >&2
  exit 1
}
