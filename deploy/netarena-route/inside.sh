#!/bin/sh
# One assessment inside `unshare -p -m -n --fork --mount-proc`: a private Open vSwitch,
# netmend serve, NetArena's unmodified green agent (with legitimate configuration put
# on the router after each network is built), and one EvalRequest over A2A.
# usage: inside.sh OUT FIDELITY CONFIG_JSON SEED   (env: NETARENA, NETARENA_PYTHON, NETMEND)
set -e
OUT=$1; FIDELITY=$2; CONFIG=$3; SEED=$4
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
sh "$HERE/ovs.sh"
if [ "$FIDELITY" = netarena ]; then
  # The official image has no iptables: the nodes get a PATH of links without the firewall tools.
  mkdir -p /mnt/bin
  for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
    for f in "$d"/*; do
      n=$(basename "$f")
      case "$n" in iptables*|ip6tables*|nft|ebtables*|arptables*|xtables*) continue;; esac
      [ -e "/mnt/bin/$n" ] || ln -s "$f" "/mnt/bin/$n"
    done
  done
  export PATH=/mnt/bin LEGIT_FIREWALL=0
else
  export LEGIT_FIREWALL=1
fi
"$NETMEND" serve --host 127.0.0.1 --port 9009 > "$OUT/serve.log" 2>&1 &
SERVE=$!
cd "$OUT"
LEGIT_SEED=$SEED LEGIT_RECORD="$OUT/legit.jsonl" "$NETARENA_PYTHON" "$HERE/harness.py" green \
  --host 127.0.0.1 --port 9999 > "$OUT/green.log" 2>&1 &
GREEN=$!
"$NETARENA_PYTHON" "$HERE/harness.py" ask http://127.0.0.1:9999/ http://127.0.0.1:9009/ "$OUT/result.json" "$CONFIG"
kill "$GREEN" "$SERVE" 2>/dev/null || true
