#!/bin/sh
# NetArena's own Route loop against netmend serve, per topology, fidelity and envelope.
# usage: run.sh OUTDIR QUERIES_PER_TYPE "netarena full" "zeroshot_base ..." "2x1 4x2 ..."
# env: NETARENA (a NetArena checkout), NETARENA_PYTHON (a python 3.12 with its Route
# dependencies), NETMEND (the netmend command). Needs root, Mininet's mnexec, Open vSwitch.
set -e
OUTDIR=$1; N=$2; FIDELITIES=$3; PROMPTS=$4; SIZES=$5
HERE=$(cd "$(dirname "$0")" && pwd)
: "${NETARENA:?set NETARENA to a NetArena checkout}" "${NETARENA_PYTHON:?}" "${NETMEND:?}"
export NETARENA NETARENA_PYTHON NETMEND
seed=0
for size in $SIZES; do
  S=${size%x*}; H=${size#*x}
  for fidelity in $FIDELITIES; do
    for prompt in $PROMPTS; do
      seed=$((seed + 1))
      OUT="$OUTDIR/$size-$fidelity-$prompt"; rm -rf "$OUT"; mkdir -p "$OUT"
      CONFIG="{\"num_queries\":$N,\"max_iterations\":10,\"benchmark_path\":\"error_config.json\",\"regenerate_benchmark\":true,\"prompt_type\":\"$prompt\",\"num_switches\":$S,\"num_hosts_per_subnet\":$H,\"output_dir\":\"results\"}"
      (cd /tmp && unshare -p -m -n --fork --mount-proc sh "$HERE/inside.sh" "$OUT" "$fidelity" "$CONFIG" "$seed" > "$OUT/run.log" 2>&1) || true
      echo "$size $fidelity $prompt: $(tail -1 "$OUT/run.log")"
    done
  done
done
"$NETARENA_PYTHON" "$HERE/harness.py" summary "$OUTDIR"
