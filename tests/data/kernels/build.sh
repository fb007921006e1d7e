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
