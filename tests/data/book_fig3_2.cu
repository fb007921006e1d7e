do {
    t1 = tid*N;           // A
    t2 = t1 + i;
    t3 = data1[t2];
    t4 = 0;
    if( t3 != t4 ) {
        t5 = data2[t2];   // B
        if( t5 != t4 ) {
            x += 1;       // C
        } else {
            y += 2;       // D
        }
    } else {
        z += 3;           // F
    }
    i++;                  // G
} while( i < N );

// Figure 3.2 of Aamodt, Fung & Rogers, "General-Purpose Graphics Processor Architectures"
// (2018), section 3.1.1: "Example CUDA C source code for illustrating SIMT stack operation",
// line for line as the book numbers it (lines 1-17 above; this note is not part of the figure).
// It is the body of a kernel as the figure prints it, not a file nvcc compiles:
// book_fig3_2.ptx is the runnable kernel (Figure 3.3's PTX), and each of its `.loc` lines gives
// the line of this listing its instructions implement. The book gives the correspondence: block
// A is lines 2-6 here and lines 1-6 of Figure 3.3; the branch on Figure 3.3's line 6 is the
// `if` on line 6; B starts on line 7 of both; F is line 14 of both.
