// pthread_getattr_np is a GNU extension.
#define _GNU_SOURCE
#include "CVowCore.h"

#include <pthread.h>

_Thread_local void *_Nullable vow_trampoline = NULL;

bool vow_current_stack_bottom(uintptr_t *_Nonnull bottom) {
#if defined(__APPLE__)
    pthread_t thread = pthread_self();
    // Darwin gives the stack's top, its highest address.
    *bottom = (uintptr_t)pthread_get_stackaddr_np(thread) - pthread_get_stacksize_np(thread);
    return true;
#else
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) {
        return false;
    }
    void *address = NULL;
    size_t size = 0;
    int status = pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    if (status != 0) {
        return false;
    }
    *bottom = (uintptr_t)address;
    return true;
#endif
}

#if !defined(__APPLE__)
// The type is opaque to Vow: only the global's address matters.
extern struct vow_dispatch_queue_attr_s _dispatch_queue_attr_concurrent;

void *_Nonnull vow_dispatch_queue_concurrent(void) {
    return &_dispatch_queue_attr_concurrent;
}
#endif
