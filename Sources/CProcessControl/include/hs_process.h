#ifndef HS_PROCESS_H
#define HS_PROCESS_H

/// Asks the kernel to kill the calling process when the thread that started it ends (Linux:
/// PR_SET_PDEATHSIG with SIGKILL; elsewhere nothing is asked). Returns 0 when the parent is
/// still `expected_parent` (or it is 0), 1 when the parent is already gone, -1 when the kernel
/// refused.
int hs_die_with_parent(int expected_parent);

/// Gives the stopping signals (TERM, INT, HUP, QUIT) and the resource limits' signals (XCPU,
/// XFSZ) their default action and unblocks them: a process inherits ignored signals and its
/// blocked mask across exec. Returns 0, or -1 when the kernel refused one.
int hs_default_signals(void);

/// Keeps memory the process frees for its next allocations (glibc: large blocks are not
/// returned to the kernel at once); a no-op elsewhere. For a helper that handles one large
/// file after another.
void hs_keep_freed_memory(void);

/// Bytes written into the pipe `fd` (either end) that its reader has not read yet; -1 where
/// the kernel cannot tell (Linux answers for both ends of a pipe).
int hs_pipe_unread_bytes(int fd);

/// Whether the child `pid` has ended, asked of the kernel without reaping it (whoever reaps
/// it still can): 0 while it runs, 1 once it has ended, with `signalled` set when a signal
/// ended it and `code` its exit status or signal; -1 when it is not a child to wait for (it
/// was reaped already). `wait_for_end` blocks until it ends.
int hs_child_ended(int pid, int wait_for_end, int *signalled, int *code);

/// Opens a pipe whose two ends are closed on exec (Linux: pipe2 with O_CLOEXEC, in one step,
/// so that no child another thread starts at the same moment inherits them). Returns 0, or -1
/// with errno set.
int hs_pipe_closed_on_exec(int fds[2]);

#endif
