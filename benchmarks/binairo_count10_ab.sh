#!/bin/sh
# Whole-process 10x10 takuzu counts of a baseline tree and this one, alternated, N rounds:
#   sh benchmarks/binairo_count10_ab.sh /path/to/baseline/tree 3
# Each line: which tree, the load average, the count, count_grids' seconds, /usr/bin/time's figures.
base=${1:?baseline tree}; rounds=${2:-3}; here=$(pwd)
for i in $(seq "$rounds"); do
  for dir in "$base" "$here"; do
    printf '%s | load%s | ' "$dir" "$(uptime | sed 's/.*average://')"
    cd "$dir" && /usr/bin/time -f '%e s wall %U user %S sys' env PYTHONPATH="$dir" \
      python -m mindgames binairo count --size 10 --no-checkpoint --json 2>&1 \
      | grep -o '"count":[0-9]*\|"seconds":[0-9.]*\|[0-9.]* s wall.*' | tr '\n' ' '
    echo
  done
done
