// posix_spawn_file_actions_addchdir_np and addclosefrom_np are extensions, which glibc and musl
// declare only with this set.
#define _GNU_SOURCE

#include "CVowFoundation.h"

#if defined(__APPLE__)
#include <TargetConditionals.h>
#endif

// Foundation has `Process` on macOS and Linux only, and `posix_spawn` is unavailable on Apple's
// other platforms, where VowFoundation never calls these.
#if !defined(__APPLE__) || TARGET_OS_OSX

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

// Foundation's `Process` spawns a child with `posix_spawn` and neither `POSIX_SPAWN_SETSIGMASK`
// nor `POSIX_SPAWN_SETSIGDEF`, and offers no way to ask for them: the child starts with the mask
// of the thread that launched it (a Dispatch worker's blocks nearly every signal) and with every
// signal its parent ignores still ignored. Changing the parent's state for the moment of the
// launch would let signals meant for other threads land on the launching one, and turn ignored
// signals into ones that interrupt system calls. So VowFoundation spawns the child itself, with
// those attributes, from what the `Process` describes.

/// The signals a child starts with at their default dispositions: those that ask a process to
/// stop (a cancellation sends `SIGTERM`, a terminal the others), and `SIGPIPE`, which most
/// servers ignore and which a child in a pipeline needs to end when its reader has gone. A
/// signal the parent catches needs nothing: `execve` resets it to its default.
static const int defaulted_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE};

/// Closes `descriptors` (-1 marks none), keeping `errno`.
static void close_all(const int descriptors[3]) {
    int saved = errno;
    for (int index = 0; index < 3; index++) {
        if (descriptors[index] >= 0) {
            close(descriptors[index]);
        }
    }
    errno = saved;
}

/// Adds to `actions` the closing of every descriptor from 3 up in the child.
static int close_the_rest(posix_spawn_file_actions_t *actions) {
#if defined(__APPLE__)
    // Darwin does it through the attribute POSIX_SPAWN_CLOEXEC_DEFAULT instead.
    (void)actions;
    return 0;
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, 3);
#else
    // Without a closefrom action, every descriptor open now; one another thread opens meanwhile
    // without FD_CLOEXEC reaches the child.
    long limit = sysconf(_SC_OPEN_MAX);
    for (int descriptor = 3; descriptor < limit && descriptor < 65536; descriptor++) {
        if (fcntl(descriptor, F_GETFD) != -1) {
            int failure = posix_spawn_file_actions_addclose(actions, descriptor);
            if (failure != 0) {
                return failure;
            }
        }
    }
    return 0;
#endif
}

/// Fills `actions` and `attributes` for `vow_spawn`; returns 0 or an `errno`.
static int prepare(
    posix_spawn_file_actions_t *actions, posix_spawnattr_t *attributes, const char *directory,
    const int copies[3]) {
    int failure = 0;
    // The copies lie at 3 or above, so that no placing of one stream overwrites another's source.
    for (int stream = 0; stream < 3 && failure == 0; stream++) {
        failure = posix_spawn_file_actions_adddup2(actions, copies[stream], stream);
    }
    if (failure == 0 && directory != NULL) {
        failure = posix_spawn_file_actions_addchdir_np(actions, directory);
    }
    if (failure == 0) {
        failure = close_the_rest(actions);
    }
    sigset_t none;
    sigset_t defaulted;
    sigemptyset(&none);
    sigemptyset(&defaulted);
    for (size_t index = 0; index < sizeof(defaulted_signals) / sizeof(defaulted_signals[0]); index++) {
        sigaddset(&defaulted, defaulted_signals[index]);
    }
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP;
#if defined(__APPLE__)
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
#endif
    if (failure == 0) failure = posix_spawnattr_setsigmask(attributes, &none);
    if (failure == 0) failure = posix_spawnattr_setsigdefault(attributes, &defaulted);
    // Group 0: the child's own identifier, so that it leads a new group.
    if (failure == 0) failure = posix_spawnattr_setpgroup(attributes, 0);
    if (failure == 0) failure = posix_spawnattr_setflags(attributes, flags);
    return failure;
}

int vow_check_executable(const char *path) {
    struct stat status;
    if (stat(path, &status) != 0) {
        return errno;
    }
    if (!S_ISREG(status.st_mode)) {
        return -1;
    }
    return access(path, X_OK) == 0 ? 0 : errno;
}

_Static_assert(sizeof(pid_t) == sizeof(int), "the header gives process identifiers as int");

int vow_spawn(
    int *child, const char *path, char *const arguments[], char *const environment[],
    const char *directory, const int streams[3]) {
    int copies[3] = {-1, -1, -1};
    for (int stream = 0; stream < 3; stream++) {
        copies[stream] = fcntl(streams[stream], F_DUPFD_CLOEXEC, 3);
        if (copies[stream] == -1) {
            int failure = errno;
            close_all(copies);
            return failure;
        }
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int failure = posix_spawn_file_actions_init(&actions);
    if (failure != 0) {
        close_all(copies);
        return failure;
    }
    failure = posix_spawnattr_init(&attributes);
    if (failure == 0) {
        failure = prepare(&actions, &attributes, directory, copies);
        if (failure == 0) {
            // posix_spawn returns the error of a child that could not start, its execve's
            // included, so no child is left to reap when it fails.
            pid_t started = 0;
            failure = posix_spawn(&started, path, &actions, &attributes, arguments, environment);
            *child = started;
        }
        posix_spawnattr_destroy(&attributes);
    }
    posix_spawn_file_actions_destroy(&actions);
    close_all(copies);
    return failure;
}

int vow_open_exit_descriptor(int child) {
#if defined(__linux__)
#ifndef SYS_pidfd_open
// The number Linux gives pidfd_open on every architecture, for headers older than 5.3.
#define SYS_pidfd_open 434
#endif
    // Close-on-exec, as every pidfd is.
    return (int)syscall(SYS_pidfd_open, child, 0);
#else
    (void)child;
    errno = ENOSYS;
    return -1;
#endif
}

int vow_await_end(int child, bool waits, int *status, bool *signaled) {
    siginfo_t information;
    int options = WEXITED | WNOWAIT | (waits ? 0 : WNOHANG);
    for (;;) {
        // Zeroed, since a WNOHANG wait that finds nothing leaves it as it was.
        information.si_pid = 0;
        if (waitid(P_PID, (id_t)child, &information, options) == 0) {
            break;
        }
        if (errno != EINTR) {
            return -1;
        }
    }
    if (information.si_pid == 0) {
        return 0;
    }
    *signaled = information.si_code != CLD_EXITED;
    *status = information.si_status;
    return 1;
}

void vow_reap(int child) {
    int status;
    while (waitpid(child, &status, 0) == -1 && errno == EINTR) {
    }
}

#else
#include <errno.h>

int vow_check_executable(const char *path) {
    (void)path;
    return ENOSYS;
}

int vow_spawn(
    int *child, const char *path, char *const arguments[], char *const environment[],
    const char *directory, const int streams[3]) {
    (void)child, (void)path, (void)arguments, (void)environment, (void)directory, (void)streams;
    return ENOSYS;
}

int vow_open_exit_descriptor(int child) {
    (void)child;
    return -1;
}

int vow_await_end(int child, bool waits, int *status, bool *signaled) {
    (void)child, (void)waits, (void)status, (void)signaled;
    return -1;
}

void vow_reap(int child) {
    (void)child;
}
#endif
