// Boolean flags, bool kernel parameters and arrays, and loops with early exits: the kinds of
// ordinary code for which nvcc 11.8 emits predicate constants (`mov.pred %p, 0;`) and predicate
// logic (issue 12). Results are checked in tests/ptx_operand_forms.rs.

// For each row of `data` (n ints), the index of the first `key`, scanning until a negative
// value stops the row unless `wrap` is set; `found` says whether it was found.
extern "C" __global__ void first_match(const int *data, int n, int rows, int key, bool wrap,
                                       int *found_at, bool *found) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    bool hit = false;
    int at = -1;
    for (int i = 0; i < n; i++) {
        int v = data[row * n + i];
        if (v == key) {
            hit = true;
            at = i;
            break;
        }
        if (v < 0 && !wrap) break;
    }
    found_at[row] = at;
    found[row] = hit;
}

// Whether each thread's strided slice of x is all positive (or non-negative unless `strict`),
// stopping at the first failure; counts the threads whose slice passed and, per block, whether
// every thread's did (__syncthreads_and) or any did (__syncthreads_or).
extern "C" __global__ void all_positive(const float *x, int n, bool strict, const bool *skip,
                                        bool *ok_flags, int *passed, int *block_all,
                                        int *block_any) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    bool ok = true;
    for (int i = t; i < n; i += blockDim.x * gridDim.x) {
        if (skip[i]) continue;
        float v = x[i];
        bool bad = strict ? (v <= 0.0f) : (v < 0.0f);
        if (bad) {
            ok = false;
            break;
        }
    }
    ok_flags[t] = ok;
    if (ok) atomicAdd(passed, 1);
    int all = __syncthreads_and(ok);
    int any = __syncthreads_or(!ok);
    if (threadIdx.x == 0) {
        block_all[blockIdx.x] = all;
        block_any[blockIdx.x] = any;
    }
}

// Bubble-sorts each thread's row of `len` ints in place, pass after pass until a pass swaps
// nothing (a `bool changed` carried around the loop), and counts the passes.
extern "C" __global__ void sort_rows(int *rows, int len, int *passes) {
    int *r = rows + (blockIdx.x * blockDim.x + threadIdx.x) * len;
    bool changed = true;
    int count = 0;
    while (changed) {
        changed = false;
        for (int i = 0; i + 1 < len; i++) {
            if (r[i] > r[i + 1]) {
                int tmp = r[i];
                r[i] = r[i + 1];
                r[i + 1] = tmp;
                changed = true;
            }
        }
        count++;
    }
    passes[blockIdx.x * blockDim.x + threadIdx.x] = count;
}

// The position of `key` in x, searched from each thread's own start around the array: the
// short-circuit loop condition for which nvcc -G writes `mov.pred %p, 0;`.
extern "C" __global__ void search_around(const int *x, int n, int key, int *pos) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int i = 0;
    while (i < n && x[(t + i) % n] != key) i++;
    pos[t] = (i < n) ? i : -1;
}
