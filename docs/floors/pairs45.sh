#!/usr/bin/env bash
# Usage: pairs45.sh BEFORE_CHECKOUT AFTER_CHECKOUT [ROUNDS] -- alternating ping-pong runs of two built
# checkouts (e.g. git worktrees at 47144e8 and at the head), each fabric x case, p50 one-way us; then halo2d
# -n 4 of each, and the Open MPI/MPICH anchors, once a round. Prints a TSV (also kept in the working directory).
set -uo pipefail
trees=("$1" "$2")
rounds=${3:-3}
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
out=pairs-$(date +%H%M).tsv
echo -e "round\tfabric\tcase\ttree\tp50_us" > $out
for r in $(seq 1 $rounds); do
  for fabric in local shm netty; do
    for tree in "${trees[@]}"; do
      # the two bench processes of shm/netty are bound to CPUs 0 and 1 (bench pingpong --bind-to core)
      bind=(); [[ $fabric != local ]] && bind=(--bind-to core)
      timeout 600 "$tree"/jspin bench pingpong --fabric $fabric "${bind[@]}" --filter 'latency_8B|bw_64KiB|bw_4MiB$' --json 2>/dev/null \
        | python3 -c "import sys,json
for c in json.load(sys.stdin): print('$r\t$fabric\t'+c['case']+'\t$tree\t'+str(c['p50_us']))" >> $out
    done
  done
done
echo "halo2d" >> $out
for r in $(seq 1 $rounds); do
  for tree in "${trees[@]}"; do
    v=$(cd "$tree" && timeout 600 ./jspin run -n 4 halo2d 2>/dev/null | grep 'time per iteration' | grep -o '[0-9.]* us' | head -1)
    echo -e "$r\thalo2d-4\t-\t$tree\t$v" >> $out
  done
  (cd "${trees[1]}" && timeout 600 ../shared/anchors/run.sh halo2d 4 2>&1 | grep RESULT | grep -o "^[a-z]* \|us_per_iter=[0-9.]*" | paste -sd" \n" | sed "s/^/$r\tanchor\t/") >> $out
done
cat $out
