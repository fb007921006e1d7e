#!/usr/bin/env bash
# Runs one of warpstep's paper experiments as a SLURM job array (README.md, "Sweeps past one
# machine"): array task I of N runs `warpstep experiment EXPERIMENT ... --shard I/N` and writes
# OUTDIR/part-I-of-N.json; a job that depends on the whole array then runs
# `warpstep experiment merge` on the parts and writes the report as OUTDIR/report.txt,
# OUTDIR/report.md, OUTDIR/report.json and the plot OUTDIR/report.svg, exactly as one run
# with the same options prints them.
#
# Usage: scripts/sweep-slurm.sh EXPERIMENT N OUTDIR [EXPERIMENT OPTIONS...]
#   e.g. scripts/sweep-slurm.sh mrpb 16 /scratch/mrpb
#        scripts/sweep-slurm.sh elastic 4 out/elastic --quick --kernel transpose16
# OUTDIR must be on a file system every node sees. Environment:
#   WARPSTEP     the warpstep binary on the nodes (default: warpstep on PATH)
#   SBATCH_ARGS  more sbatch options for both jobs, e.g. "--partition=cpu --time=02:00:00"
#   JOBS         simulations each shard runs at once (--jobs; default: the task's CPUs)
# Prints the two job ids. The merge runs even when a shard fails (afterany) so that it can say
# which shard is missing; its log is OUTDIR/logs/merge.log.
set -euo pipefail

if [ $# -lt 3 ]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
fi
experiment=$1
shards=$2
outdir=$3
shift 3
case $shards in
  '' | *[!0-9]* | 0) echo "sweep-slurm: N must be a positive number, not '$shards'" >&2; exit 2 ;;
esac
warpstep=${WARPSTEP:-warpstep}
mkdir -p "$outdir/logs"
outdir=$(cd "$outdir" && pwd)

# The experiment's options, quoted for the job scripts.
options=""
for o in "$@"; do options+=" $(printf '%q' "$o")"; done
jobs=""
[ -n "${JOBS:-}" ] && jobs=" --jobs $(printf '%q' "$JOBS")"

shard_script="$outdir/logs/shard.sh"
cat >"$shard_script" <<SCRIPT
#!/usr/bin/env bash
set -euo pipefail
i=\${SLURM_ARRAY_TASK_ID:?not a job array task}
exec $(printf '%q' "$warpstep") experiment $(printf '%q' "$experiment")$options$jobs \\
  --shard "\$i/$shards" --out $(printf '%q' "$outdir")/part-"\$i"-of-$shards.json
SCRIPT

merge_script="$outdir/logs/merge.sh"
cat >"$merge_script" <<SCRIPT
#!/usr/bin/env bash
set -uo pipefail
cd $(printf '%q' "$outdir")
parts=()
for i in \$(seq 1 $shards); do parts+=("part-\$i-of-$shards.json"); done
w=$(printf '%q' "$warpstep")
"\$w" experiment merge "\${parts[@]}" >report.txt
status=\$?
[ \$status -le 1 ] || exit \$status
"\$w" experiment merge "\${parts[@]}" --markdown --plot report.svg >report.md
"\$w" experiment merge "\${parts[@]}" --json >report.json
exit \$status
SCRIPT

# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name="warpstep-$experiment" \
  --array="1-$shards" --output="$outdir/logs/shard-%a.log" "$shard_script")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name="warpstep-$experiment-merge" \
  --dependency="afterany:$array" --output="$outdir/logs/merge.log" "$merge_script")
echo "sweep-slurm: $experiment in $shards shards: array job $array, merge job ${merge%%;*}"
echo "sweep-slurm: the report will be $outdir/report.txt (.md, .json, .svg)"
