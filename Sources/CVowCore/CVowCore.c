// pthread_getattr_np is a GNU extension.
#define _GNU_SOURCE
#include "CVowCore.h"

#include <pthread.h>
#include <stdio.h>

_Thread_local void *_Nullable vow_trampoline = NULL;
_Thread_local void *_Nullable vow_running_mailbox = NULL;
uint32_t vow_main_queue_watch = 0;
void *vow_main_queue_object = 0;

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

// libdispatch's C entry points, declared here rather than taken from <dispatch/dispatch.h>:
// on Linux that header sits in the Swift toolchain, outside the paths a C target searches. In
// C, on Darwin as on Linux, a queue is a pointer to `struct dispatch_queue_s` and the
// concurrent attribute and the main queue are the addresses of exported globals, which
// `DISPATCH_QUEUE_CONCURRENT` and `dispatch_get_main_queue()` name; linked like any other
// symbol, they also work in a statically linked program. Swift on
// Darwin cannot call these functions itself (its SDK marks them unavailable there), so every
// platform calls them from here, and Vow's barrier queues and its hops to the main queue take
// one path everywhere.
struct dispatch_queue_s;
struct dispatch_queue_attr_s;
extern struct dispatch_queue_attr_s _dispatch_queue_attr_concurrent;
extern struct dispatch_queue_s _dispatch_main_q;
extern struct dispatch_queue_s *dispatch_queue_create(const char *label, struct dispatch_queue_attr_s *attributes);
extern void dispatch_sync_f(struct dispatch_queue_s *queue, void *context, void (*work)(void *));
extern void dispatch_barrier_sync_f(struct dispatch_queue_s *queue, void *context, void (*work)(void *));
extern void dispatch_async_f(struct dispatch_queue_s *queue, void *context, void (*work)(void *));

// A concurrent queue named `label`, which lives as long as the program.
static vow_barrier_queue *_Nonnull barrier_queue_create(const char *_Nonnull label) {
    return (vow_barrier_queue *)dispatch_queue_create(label, &_dispatch_queue_attr_concurrent);
}

vow_barrier_queue *_Nonnull *_Nullable vow_barrier_pool = 0;

static vow_barrier_queue *barrier_pool_queues[VOW_BARRIER_POOL_SIZE];
static pthread_once_t barrier_pool_once = PTHREAD_ONCE_INIT;

static void barrier_pool_fill(void) {
    for (int index = 0; index < VOW_BARRIER_POOL_SIZE; index++) {
        char label[16];
        snprintf(label, sizeof label, "vow.box.%d", index);
        barrier_pool_queues[index] = barrier_queue_create(label);
    }
    // Published only once every queue is made: a thread that loads the pointer sees them all.
    __atomic_store_n(&vow_barrier_pool, barrier_pool_queues, __ATOMIC_RELEASE);
}

vow_barrier_queue *_Nonnull *_Nonnull vow_barrier_pool_make(void) {
    pthread_once(&barrier_pool_once, barrier_pool_fill);
    return barrier_pool_queues;
}

void vow_barrier_queue_read(vow_barrier_queue *_Nonnull queue, void *_Nullable context, vow_barrier_work _Nonnull work) {
    dispatch_sync_f((struct dispatch_queue_s *)queue, context, work);
}

void vow_barrier_queue_write(vow_barrier_queue *_Nonnull queue, void *_Nullable context, vow_barrier_work _Nonnull work) {
    dispatch_barrier_sync_f((struct dispatch_queue_s *)queue, context, work);
}

void vow_main_queue_async(void *_Nullable context, vow_barrier_work _Nonnull work) {
    dispatch_async_f(&_dispatch_main_q, context, work);
}
