#!/bin/bash
# curve.sh ALL.jsonl H N1 N2 ... : fit on the first N games, score on the last H (same H for every N)
all=$1; H=$2; shift 2
for N in "$@"; do
  d=/work/runs/curve/n$N-h$H; rm -rf $d; mkdir -p $d
  head -$N $all > $d/games.jsonl; tail -$H $all >> $d/games.jsonl
  echo '{"source": "server games"}' > $d/manifest.json
  ho=$(python3 -c "print(($H-0.5)/($N+$H))")
  echo "== N=$N H=$H"
  /work/main/.venv/bin/daide-mcts train fit $d --players bandana:dbrane --held-out $ho --out /work/runs/curve/n$N-h$H.json --seed 1 ${EXTRA} 2>&1 | tail -5
done
