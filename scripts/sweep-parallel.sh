#!/usr/bin/env bash
# Runs one of warpstep's paper experiments over ssh hosts with GNU parallel (README.md,
# "Sweeps past one machine"): shard I of N runs `warpstep experiment EXPERIMENT ... --shard I/N`
# on one of the hosts (one shard at a time per host), its part comes back as
# OUTDIR/part-I-of-N.json, and `warpstep experiment merge` then joins the parts here into
# OUTDIR/report.txt, OUTDIR/report.md, OUTDIR/report.json and the plot OUTDIR/report.svg,
# exactly as one run with the same options prints them.
#
# Usage: scripts/sweep-parallel.sh [--sshlogin LOGINS]... EXPERIMENT N OUTDIR [EXPERIMENT OPTIONS...]
#   e.g. scripts/sweep-parallel.sh --sshlogin node1,node2,node3 mrpb 3 out/mrpb
#        scripts/sweep-parallel.sh --sshlogin : elastic 2 out/elastic --quick   # ':' is this machine
# LOGINS is GNU parallel's --sshlogin ([N/][user@]host, comma-separated or repeated; default
# ':', this machine). Every host needs warpstep of the same version. Environment:
#   WARPSTEP  the warpstep binary on the hosts (default: warpstep on PATH there)
#   LOCAL_WARPSTEP  the one that merges here (default: $WARPSTEP)
#   JOBS      simulations each shard runs at once (--jobs; default: one per core of its host)
set -euo pipefail

logins=()
while [ $# -gt 0 ]; do
  case $1 in
    --sshlogin | -S) logins+=(--sshlogin "$2"); shift 2 ;;
    --sshlogin=*) logins+=(--sshlogin "${1#*=}"); shift ;;
    *) break ;;
  esac
done
if [ $# -lt 3 ]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
fi
[ ${#logins[@]} -gt 0 ] || logins=(--sshlogin :)
experiment=$1
shards=$2
outdir=$3
shift 3
case $shards in
  '' | *[!0-9]* | 0) echo "sweep-parallel: N must be a positive number, not '$shards'" >&2; exit 2 ;;
esac
command -v parallel >/dev/null || { echo "sweep-parallel: GNU parallel is not installed" >&2; exit 2; }
warpstep=${WARPSTEP:-warpstep}
local_warpstep=${LOCAL_WARPSTEP:-$warpstep}
mkdir -p "$outdir"
cd "$outdir"

# The remote command line, quoted once for the remote shell ({} is the shard).
remote="$(printf '%q ' "$warpstep" experiment "$experiment" "$@")"
[ -n "${JOBS:-}" ] && remote+="--jobs $(printf '%q' "$JOBS") "
remote+="--shard {}/$shards --out part-{}-of-$shards.json"

# One shard at a time per host (-j1), the part written in the remote login directory, brought
# back here and removed there (--return, --cleanup; on ':' it is written here directly). A
# failed shard does not stop the others; the merge names what is missing.
status=0
seq 1 "$shards" | parallel -j1 "${logins[@]}" --return "part-{}-of-$shards.json" \
  --cleanup --tag --line-buffer "$remote" || status=$?
[ $status -eq 0 ] || echo "sweep-parallel: $status shard(s) failed; merging what came back" >&2

parts=()
for i in $(seq 1 "$shards"); do parts+=("part-$i-of-$shards.json"); done
merged=0
"$local_warpstep" experiment merge "${parts[@]}" >report.txt || merged=$?
[ $merged -le 1 ] || exit $merged
"$local_warpstep" experiment merge "${parts[@]}" --markdown --plot report.svg >report.md
"$local_warpstep" experiment merge "${parts[@]}" --json >report.json
echo "sweep-parallel: $experiment in $shards shards: $(pwd)/report.txt (.md, .json, .svg)" >&2
exit $merged
