// What VowFoundation needs from C: a way for a launched child to start with the signal state a
// shell would give it, set in the child alone, since Foundation's `Process` offers none.

#ifndef CVOWFOUNDATION_H
#define CVOWFOUNDATION_H

#include <stdbool.h>

/// Whether a child spawned from this thread now would start with a signal blocked, or with
/// `SIGTERM`, `SIGINT`, `SIGHUP`, `SIGQUIT` or `SIGPIPE` ignored: the thread's mask and the
/// process's dispositions, read and never changed.
bool vow_child_would_inherit_signal_state(void);

/// Whether this program can launch a child through its own executable as a trampoline, which
/// sets the child's signal state and then executes the real program in its place (see
/// `CVowFoundation.c`): only where this code is part of the program's main executable, which
/// `/proc/self/exe` names, on Linux with glibc.
bool vow_exec_trampoline_is_available(void);

/// The environment variable that asks the trampoline to run: set, with any value, in the
/// environment of a child launched as `/proc/self/exe` with the real program's path and
/// arguments as its own.
const char *vow_exec_trampoline_variable(void);

#endif
