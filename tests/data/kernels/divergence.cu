// The book's Fig. 3.2 (Aamodt, Fung & Rogers, section 3.1.1): two branches nested in a do-while
// loop. Thread tid walks row tid of data1/data2 (N columns) and counts into x, y, z.
extern "C" __global__ void divergence(const unsigned *data1, const unsigned *data2, unsigned N,
                                      unsigned *out_x, unsigned *out_y, unsigned *out_z) {
    unsigned tid = threadIdx.x;
    unsigned x = 0, y = 0, z = 0;
    unsigned i = 0;
    do {
        unsigned t1 = tid * N;
        unsigned t2 = t1 + i;
        unsigned t3 = data1[t2];
        unsigned t4 = 0;
        if (t3 != t4) {
            unsigned t5 = data2[t2];
            if (t5 != t4) {
                x += 1;
            } else {
                y += 2;
            }
        } else {
            z += 3;
        }
        i++;
    } while (i < N);
    out_x[tid] = x;
    out_y[tid] = y;
    out_z[tid] = z;
}
