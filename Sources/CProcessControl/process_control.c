#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "hs_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <malloc.h>
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

int hs_default_signals(void) {
    // Ignored signals and the blocked mask survive exec: a helper started by a service that
    // ignores SIGTERM and SIGINT (to handle them itself) would otherwise be stopped by nothing
    // but SIGKILL, and one that blocked SIGXCPU would run past its processor limit's warning.
    const int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGXCPU, SIGXFSZ};
    sigset_t set;
    sigemptyset(&set);
    int failed = 0;
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (signal(signals[i], SIG_DFL) == SIG_ERR) failed = 1;
        sigaddset(&set, signals[i]);
    }
    if (sigprocmask(SIG_UNBLOCK, &set, NULL) != 0) failed = 1;
    return failed ? -1 : 0;
}

void hs_keep_freed_memory(void) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

int hs_pipe_unread_bytes(int fd) {
    // ioctl is variadic, which Swift cannot call.
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) != 0) return -1;
    return count;
}

int hs_child_ended(int pid, int wait_for_end, int *signalled, int *code) {
    // The siginfo_t union is out of Swift's reach.
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        int options = WEXITED | WNOWAIT | (wait_for_end ? 0 : WNOHANG);
        if (waitid(P_PID, (id_t)pid, &info, options) == 0) {
            if (info.si_pid == 0) return 0;
            *signalled = info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED;
            *code = info.si_status;
            return 1;
        }
        if (errno != EINTR) return -1;
    }
}

int hs_pipe_closed_on_exec(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    // Without pipe2 the flags are set at once after: a child started in between inherits them.
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}
