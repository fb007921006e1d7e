#!/usr/bin/env bash
# Builds GPGPU-Sim (gpgpu-sim_distribution, 4.x) on this Debian machine and runs a reference
# kernel on its GTX480 configuration, for correlating warpstep (a developer tool, not a test;
# GPGPU-Sim's code stays outside the repository). Needs a checkout of GPGPU-Sim's source in
# $GPGPUSIM_SRC (e.g. `git --git-dir=<mirror> --work-tree=$GPGPUSIM_SRC checkout HEAD -- .`) and
# Debian's nvcc (../../shared/tools/install-nvcc.sh).
#   run-gpgpusim.sh saxpy|transpose [SMS] [ARGS...]   e.g. run-gpgpusim.sh transpose 15 padded
# Two local fixes make it build and run with Debian 12's tools: bison 3.8 writes comments into
# ptx.tab.h that the parser's token table must not copy, and g++ 12 compiles
# __cudaPushCallConfiguration, which lacks its `return`, into a fall-through that recurses.
# Measured so: saxpy on 1 SM 27,360 cycles (the reference: 27,283), padded transpose on 15 SMs
# 68,760 (69,591).
set -euo pipefail
src=${GPGPUSIM_SRC:?set GPGPUSIM_SRC to a checkout of GPGPU-Sim}
kernel=${1:?saxpy or transpose}; sms=${2:-15}; shift $(( $# < 2 ? $# : 2 ))
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-/tmp/gpgpusim-run}
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bison flex xutils-dev zlib1g-dev >/dev/null
# A CUDA_INSTALL_PATH as GPGPU-Sim expects it, over Debian's toolkit.
cuda=$work/cuda
mkdir -p "$cuda/bin"
for f in /usr/lib/nvidia-cuda-toolkit/bin/* /usr/bin/cuobjdump /usr/bin/ptxas /usr/bin/nvdisasm /usr/bin/fatbinary; do
  ln -sf "$f" "$cuda/bin/"
done
ln -sfn /usr/include "$cuda/include"; ln -sfn /usr/lib/x86_64-linux-gnu "$cuda/lib64"
export CUDA_INSTALL_PATH=$cuda PATH=$cuda/bin:$PATH
grep -q 'sed "s|/\\\*' "$src/src/cuda-sim/Makefile" || sed -i '132s@grep "="@grep "=" | sed "s|/\\*.*\\*/||"@' "$src/src/cuda-sim/Makefile"
python3 - "$src/libcuda/cuda_runtime_api.cc" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
# The body of __cudaPushCallConfiguration ends right before __cudaPopCallConfiguration.
fixed = re.sub(r"(\n  cudaConfigureCallInternal\(gridDim, blockDim, sharedMem, stream\);\n)(\}\n\ncudaError_t CUDARTAPI __cudaPopCallConfiguration)",
               r"\1  return 0;\n\2", text, count=1)
open(path, "w").write(fixed)
PY
# setup_environment asks git for a version and returns non-zero outside a git checkout.
set +eu
source "$src/setup_environment" release >/dev/null 2>&1
set -eu
make -C "$src" -j"$(nproc)" >/dev/null 2>&1
mkdir -p "$work/run" && cd "$work/run"
cp "$src"/configs/tested-cfgs/SM2_GTX480/* .
sed -i "s/^-gpgpu_n_clusters .*/-gpgpu_n_clusters $sms/; s/^-power_simulation_enabled 1/-power_simulation_enabled 0/" gpgpusim.config
nvcc -ccbin g++-11 -gencode arch=compute_52,code=compute_52 --cudart shared -o "$kernel" "$here/$kernel.cu"
"./$kernel" "$@" > run.log 2>&1 || true
grep -E "^gpu_sim_cycle|^gpu_sim_insn|L1D_total_cache_(accesses|misses)|bw_util=|Network latency average =|avg_icnt2mem_latency|gpu_stall_dramfull" run.log
echo "full output: $work/run/run.log"
