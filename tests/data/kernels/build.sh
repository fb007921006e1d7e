#!/usr/bin/env bash
# Compiles every .cu here to PTX for sm_52 and sm_80 with Debian's nvcc
# (../../../../shared/tools/install-nvcc.sh installs it). The PTX is committed; tests read it, so
# neither `make test` nor CI needs nvcc. Run again after editing a kernel.
# The sm_52 PTX is compiled with -lineinfo: its `.loc` lines give the CUDA line of each
# instruction (issue 29), which the app and the Why? chain show beside the PTX line. -lineinfo
# changes no instruction. nvcc writes the `.file` name as an absolute path; it is made relative
# (`.file 1 "transpose.cu"`) so the PTX does not depend on where the tree was checked out.
set -euo pipefail
cd "$(dirname "$0")"
for cu in *.cu; do
  nvcc -ccbin g++-11 -ptx -arch=sm_52 -lineinfo -o "${cu%.cu}.sm_52.ptx" "$cu"
  sed -i "s|^\(\s*\.file\s\+[0-9]\+\s\+\"\)$PWD/|\1|" "${cu%.cu}.sm_52.ptx"
  nvcc -ccbin g++-11 -ptx -arch=sm_80 -o "${cu%.cu}.sm_80.ptx" "$cu"
done
ls *.ptx
# Debug builds (-G), as a student compiles a kernel to step through it: nvcc writes predicate
# constants (`mov.pred %p, 0;`) and extra predicate moves there (issue 12).
for cu in flags.cu; do
  nvcc -ccbin g++-11 -ptx -arch=sm_52 -G -o "${cu%.cu}.sm_52.debug.ptx" "$cu"
done
ls *.debug.ptx
