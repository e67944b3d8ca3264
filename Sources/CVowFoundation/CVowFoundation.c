// dl_iterate_phdr and its types are GNU extensions, declared only with this set.
#define _GNU_SOURCE

#include "CVowFoundation.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>

/// The signals a child starts with at their default dispositions: those that ask a process to
/// stop (`terminate()` and a cancellation send `SIGTERM`, `interrupt()` sends `SIGINT`, a
/// terminal the others), and `SIGPIPE`, which most servers ignore and which a child in a
/// pipeline needs to end when its reader has gone.
static const int defaulted_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE};
static const size_t defaulted_count = sizeof(defaulted_signals) / sizeof(defaulted_signals[0]);

bool vow_child_would_inherit_signal_state(void) {
    sigset_t mask;
    sigemptyset(&mask);
    // SIG_BLOCK with an empty set changes nothing and reports the current mask.
    sigset_t none;
    sigemptyset(&none);
    if (pthread_sigmask(SIG_BLOCK, &none, &mask) != 0) {
        return true;
    }
    for (int signal = 1; signal < NSIG; signal++) {
        if (sigismember(&mask, signal) == 1) {
            return true;
        }
    }
    for (size_t index = 0; index < defaulted_count; index++) {
        struct sigaction action;
        if (sigaction(defaulted_signals[index], NULL, &action) == 0 && action.sa_handler == SIG_IGN) {
            return true;
        }
    }
    return false;
}

static const char trampoline_variable[] = "VOW_EXEC_TRAMPOLINE";

const char *vow_exec_trampoline_variable(void) {
    return trampoline_variable;
}

#if defined(__linux__) && defined(__GLIBC__)
// Foundation's `Process` spawns a child with `posix_spawn` and neither `POSIX_SPAWN_SETSIGMASK`
// nor `POSIX_SPAWN_SETSIGDEF`, and offers no way to ask for them: the child starts with the mask
// of the thread that launched it and every signal its parent ignores still ignored. Changing
// the parent's state for the moment of the launch would let signals meant for other threads
// land on the launching one, and turn ignored signals into ones that interrupt system calls.
//
// So where the child would inherit something, VowFoundation launches this very program instead,
// through `/proc/self/exe`, with the real program's path and arguments as its arguments and
// `VOW_EXEC_TRAMPOLINE` in its environment. Before the program's own code runs, the constructor
// below finds the variable, removes it, empties the mask, sets the signals above to their
// defaults and executes the real program in place: the process keeps its identifier, so the
// `Process` that launched it reports the real program's status and reason as usual.
//
// Only the program's main executable can serve, since `/proc/self/exe` names it: a constructor
// in a shared library would be absent from it. So the constructor first checks that it lies in
// the main executable, the first object the dynamic loader lists, and records that it does.

#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/// Set by the constructor in a program that holds this code in its main executable.
static bool trampoline_is_available = false;

/// Two addresses, and whether both lie in the main executable.
struct main_executable_check {
    uintptr_t addresses[2];
    bool both_inside;
};

/// Whether the addresses in `data`, a `struct main_executable_check`, lie in loaded segments of
/// the first object listed, the main executable; stops at the first object.
static int lies_in_main_executable(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct main_executable_check *check = data;
    int inside = 0;
    for (size_t which = 0; which < 2; which++) {
        uintptr_t address = check->addresses[which];
        for (int index = 0; index < info->dlpi_phnum; index++) {
            const ElfW(Phdr) *header = &info->dlpi_phdr[index];
            uintptr_t start = info->dlpi_addr + header->p_vaddr;
            if (header->p_type == PT_LOAD && address >= start && address < start + header->p_memsz) {
                inside++;
                break;
            }
        }
    }
    check->both_inside = inside == 2;
    return 1;
}

/// Writes `text` to standard error, without the buffering of stdio, which a program about to end
/// with `_exit` would not flush.
static void report(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written <= 0) {
            return;
        }
        text += written;
        length -= (size_t)written;
    }
}

/// Runs before the program's own code (glibc passes a constructor the program's arguments and
/// environment): in a trampoline, becomes the real program; otherwise notes that this program
/// can serve as one.
__attribute__((constructor(101))) static void vow_exec_trampoline(int argc, char **argv, char **envp) {
    // This code, and the program headers the kernel loaded, in the main executable: so
    // `/proc/self/exe` is the program holding this code, and not the dynamic loader that a
    // program run as `ld.so program` would find there.
    struct main_executable_check check = {
        .addresses = {(uintptr_t)&vow_exec_trampoline, (uintptr_t)getauxval(AT_PHDR)},
        .both_inside = false,
    };
    dl_iterate_phdr(lies_in_main_executable, &check);
    if (!check.both_inside || envp == NULL) {
        return;
    }
    size_t name_length = sizeof(trampoline_variable) - 1;
    char **found = NULL;
    for (char **entry = envp; *entry != NULL; entry++) {
        if (strncmp(*entry, trampoline_variable, name_length) == 0 && (*entry)[name_length] == '=') {
            found = entry;
            break;
        }
    }
    if (found == NULL) {
        trampoline_is_available = access("/proc/self/exe", X_OK) == 0;
        return;
    }
    // A program running with more privileges than its caller, setuid for one, never executes
    // what its environment and arguments name: the caller could not run that itself.
    if (getauxval(AT_SECURE) != 0 || argc < 2) {
        return;
    }
    // Removed in place, without allocating: the real program must not become a trampoline in
    // turn, should it be a program of Vow's too.
    for (char **entry = found; *entry != NULL; entry++) {
        entry[0] = entry[1];
    }
    // Defaults first, then the mask: a signal sent while this process still ignored it waited,
    // blocked, and arrives now, with its default action.
    for (size_t index = 0; index < defaulted_count; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_handler = SIG_DFL;
        sigemptyset(&action.sa_mask);
        sigaction(defaulted_signals[index], &action, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(argv[1], argv + 1, envp);
    // The parent checked the program before launching; it went away, or changed, meanwhile.
    report("Vow could not start ");
    report(argv[1]);
    report(": ");
    report(strerror(errno));
    report("\n");
    _exit(127);
}

bool vow_exec_trampoline_is_available(void) {
    return trampoline_is_available;
}
#else
bool vow_exec_trampoline_is_available(void) {
    return false;
}
#endif
