// What VowFoundation needs from C: a signal's disposition, read and set through `sa_handler`,
// which every C library declares, while the field behind it differs between Darwin, glibc and
// musl as Swift sees them. Here one path serves every platform.

#ifndef CVOWFOUNDATION_H
#define CVOWFOUNDATION_H

/// What a signal's disposition is, as far as a launch cares.
typedef enum __attribute__((enum_extensibility(closed))) {
    /// Ignored: a child would inherit that.
    VowDispositionIgnored,
    /// Caught by a handler that does nothing, which a launch installs for the moment it spawns.
    VowDispositionDoingNothing,
    /// The default, or caught by a handler of the program's own: a child gets the default.
    VowDispositionDefault,
} VowDisposition;

/// `signal`'s disposition.
VowDisposition vow_signal_disposition(int signal);

/// Catches `signal` with a handler that drops it, as ignoring it would, but which `exec` resets.
/// `SA_RESTART` keeps system calls from failing with `EINTR` when it arrives.
void vow_signal_do_nothing(int signal);

/// Ignores `signal`.
void vow_signal_ignore(int signal);

#endif
