// The book's Fig. 3.5 (Aamodt, Fung & Rogers, section 3.1.1): a spin lock built on atomicCAS.
// Every thread of the warp tries to take one lock. The lane that wins leaves the loop and waits
// at the loop's reconvergence point (its immediate post-dominator) until the other lanes leave
// too; they never do, because the winner cannot release the lock before they reconverge. On a
// lock-step SIMT stack this never finishes: warpstep must stop at --max-cycles and name the warps.
extern "C" __global__ void spinlock(int *lock, int *counter) {
    while (atomicCAS(lock, 0, 1) != 0) {
        // spin
    }
    *counter += 1;  // the critical section
    __threadfence();
    atomicExch(lock, 0);  // release
}
