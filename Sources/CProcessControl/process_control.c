#include "hs_process.h"

#include <signal.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

int hs_die_with_parent(int expected_parent) {
#if defined(__linux__)
    // prctl is variadic, which Swift cannot call.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
#endif
    // The parent may have died before the request: then the process was re-parented already.
    if (expected_parent > 0 && getppid() != (pid_t)expected_parent) return 1;
    return 0;
}
