#!/usr/bin/env bash
# Instruction counts of the bounds workloads, per size, with the ratio per doubling.
#
# Wall-clock ratios on a shared 2-core machine move by more than the differences at
# stake (docs/bounds.md, `docs/reference/bounds.md` §Scaling). Instructions retired do not: valgrind's callgrind
# counts the same total for the same binary and input whatever else the machine does.
# It counts neither cache misses nor allocation's page faults, so it complements
# criterion rather than replacing it.
#
# Usage: [SIZES="20 24 32 40"] tools/instructions/run.sh [FILTER...]
#   FILTER: workload names as the scaling example prints them (default: all but B16).
#   SIZES: the sizes to count instead of the example's own (for B14, levels whose inputs
#   tools/halide21-cases has written).
# Each size is run once and twice under callgrind, counting only the timed closure;
# the difference is one steady run (one-time setup, such as the simplifier's rule
# tables, falls in the first run). Ratios are per doubling of N, or of the input DAG
# where the example prints it ("(1583 nodes)").
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "valgrind is required" >&2; exit 2; }
cargo build --release -q -p loopir-bounds --example scaling
bin=target/release/examples/scaling
filters=("$@")
if [ ${#filters[@]} -eq 0 ]; then
  filters=("B1 let_chain_expr" "square_let_chain" "G02 nested_arith_sel" "B3 nested_select_calls"
    "B3b nested_ident_calls" "B5 fibonacci_dag" "B10 horner" "B11 bitwise_chain" "B2 let_chain_stmt"
    "B2b let_chain_stmt_wide" "B9 many_calls" "stencil_chain" "B12 if_dependents m=1"
    "B12 if_dependents m=8" "B12 if_dependents m=32" "B4 inline_chain" "B6 root_chain"
    "B6a root_chain alloc" "B7 tiled_chain" "B8 deep_nest" "B13 specialized_upd"
    "B14 pyramid by input DAG" "B14a pyramid alloc by input DAG" "B17 sel_index alloc"
    "B17 sel_let alloc" "B17 sel_if alloc" "B18 add_chain")
fi
count() { # filter size runs -> instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='scaling::timed::{{closure}}' \
    "$bin" "$1" "$2" "$3" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for f in "${filters[@]}"; do
  # The sizes (and input DAG sizes) as the example reports them.
  if [ -n "${SIZES:-}" ]; then
    plain=$(for n in $SIZES; do "$bin" "$f" "$n" 1 2>/dev/null | grep -F "$f" | head -1 || true; done)
  else
    plain=$("$bin" "$f" "" 1 2>/dev/null | grep -F "$f" | head -1 || true)
  fi
  sizes=$(grep -o 'N=[0-9]*' <<<"$plain" | cut -d= -f2 || true)
  [ -n "$sizes" ] || { echo "$f: no sizes (is the name right?)" >&2; continue; }
  out="$f"
  prev=""
  for n in $sizes; do
    one=$(count "$f" "$n" 1)
    two=$(count "$f" "$n" 2)
    c=$((two - one))
    m=$(grep -o "N=$n ([0-9]* nodes)" <<<"$plain" | grep -o '([0-9]*' | tr -d '(' || true)
    m=${m:-$n}
    if [ -n "$prev" ]; then
      r=$(awk -v c="$c" -v p="${prev% *}" -v m="$m" -v pm="${prev#* }" \
        'BEGIN { printf "%.2f", exp(log(c / p) / (log(m / pm) / log(2))) }')
      out="$out  N=$n: $c (x$r)"
    else
      out="$out  N=$n: $c"
    fi
    prev="$c $m"
  done
  echo "$out"
done
