// What VowFoundation needs from C: starting a child with the signal state a shell would give it,
// and waiting for it without reaping it, neither of which Foundation's `Process` offers.

#ifndef CVOWFOUNDATION_H
#define CVOWFOUNDATION_H

#include <stdbool.h>

// Identifiers of processes are `int`, which `pid_t` is on Linux and Darwin alike: so this header
// needs no system header beyond the compiler's own.

/// The checks Foundation's `run()` makes before it spawns: 0 if `path` is a regular file this
/// program may execute; otherwise the `errno` of the `stat` or `access` that failed, or -1 for
/// something other than a regular file.
int vow_check_executable(const char *path);

/// Starts the program at `path` with `arguments` and `environment`, each ending with a null
/// pointer, in `directory` (or this program's, if `NULL`), with `streams[0]`, `streams[1]` and
/// `streams[2]` as its standard input, output and error; on success stores its identifier in
/// `child` and returns 0, and otherwise returns the `errno` of what failed, and no child exists.
///
/// The child starts with no signal blocked, with `SIGTERM`, `SIGINT`, `SIGHUP`, `SIGQUIT` and
/// `SIGPIPE` at their default dispositions, with no other descriptor of this program open, and
/// leading a process group of its own, as Foundation's `Process` makes it; nothing of this
/// program's own state changes, on any thread.
int vow_spawn(
    int *child, const char *path, char *const arguments[], char *const environment[],
    const char *directory, const int streams[3]);

/// A descriptor that becomes readable once the child `child` has ended, on Linux 5.3 or later;
/// -1, with `errno` set, where there is none.
int vow_open_exit_descriptor(int child);

/// Whether the child `child` has ended, waiting for it to if `waits`, and if so how: `*status`
/// is its exit status or the signal that killed it, and `*signaled` says which. The child stays
/// a zombie, so its identifier, and its process group's, cannot be reused until `vow_reap`.
/// Returns 1 if it has ended, 0 if it has not (only when not waiting), and -1 with `errno` set
/// if it is not this program's child to wait for.
int vow_await_end(int child, bool waits, int *status, bool *signaled);

/// Reaps the child `child`, which `vow_await_end` found ended.
void vow_reap(int child);

#endif
