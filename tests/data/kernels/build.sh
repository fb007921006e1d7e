#!/usr/bin/env bash
# Compiles every .cu here to PTX for sm_52 and sm_80 with Debian's nvcc
# (../../../../shared/tools/install-nvcc.sh installs it). The PTX is committed; tests read it, so
# neither `make test` nor CI needs nvcc. Run again after editing a kernel.
set -euo pipefail
cd "$(dirname "$0")"
for cu in *.cu; do
  for arch in sm_52 sm_80; do
    nvcc -ccbin g++-11 -ptx -arch="$arch" -o "${cu%.cu}.$arch.ptx" "$cu"
  done
done
ls *.ptx
# Debug builds (-G), as a student compiles a kernel to step through it: nvcc writes predicate
# constants (`mov.pred %p, 0;`) and extra predicate moves there (issue 12).
for cu in flags.cu; do
  nvcc -ccbin g++-11 -ptx -arch=sm_52 -G -o "${cu%.cu}.sm_52.debug.ptx" "$cu"
done
ls *.debug.ptx
