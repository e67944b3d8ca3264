#include "CVowFoundation.h"

#include <signal.h>
#include <stddef.h>

static void do_nothing(int signal) {
    (void)signal;
}

VowDisposition vow_signal_disposition(int signal) {
    struct sigaction action;
    if (sigaction(signal, NULL, &action) != 0) {
        return VowDispositionDefault;
    }
    if (action.sa_handler == SIG_IGN) {
        return VowDispositionIgnored;
    }
    return action.sa_handler == do_nothing ? VowDispositionDoingNothing : VowDispositionDefault;
}

static void set_handler(int signal, void (*handler)(int)) {
    struct sigaction action = {0};
    action.sa_handler = handler;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, NULL);
}

void vow_signal_do_nothing(int signal) {
    set_handler(signal, do_nothing);
}

void vow_signal_ignore(int signal) {
    set_handler(signal, SIG_IGN);
}
