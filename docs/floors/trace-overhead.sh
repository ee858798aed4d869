#!/usr/bin/env bash
# Usage: trace-overhead.sh ROUNDS -- tracing's cost: halo2d and fft2d as 2 processes bound to cores, untraced and traced alternately
# (ABBA order across rounds), the program's own time per iteration/transform (slowest rank).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-5}
for r in $(seq 1 $rounds); do
  if (( r % 2 )); then order="off on"; else order="on off"; fi
  for prog in halo2d fft2d; do
    args=(); [[ $prog == fft2d ]] && args=(--size 1024 --iterations 10)
    for mode in $order; do
      t=(); dir=/tmp/ovh-trace; rm -rf $dir
      [[ $mode == on ]] && t=(--trace $dir)
      v=$(timeout 600 ./jspin run -n 2 --bind-to core "${t[@]}" $prog "${args[@]}" 2>/dev/null | grep -E 'time per (iteration|transform)' | grep -o '[0-9.]* us' | head -1)
      echo -e "$r\t$prog\t$mode\t$v"
    done
  done
done
