// The few things Vow needs from C: atomics that exist on every system Vow supports, the
// bounds of a thread's stack, a thread-local slot, which Swift has no way to declare, and
// libdispatch's C entry points for the barrier queues and the main queue, the same on every
// platform.
//
// The atomics are compiler builtins rather than Synchronization's `Atomic`, which needs
// macOS 15 and iOS 18. They are inline, so a load costs what the instruction costs.

#ifndef CVOWCORE_H
#define CVOWCORE_H

#include <stdbool.h>
#include <stdint.h>

/// Loads `*address` with acquiring ordering.
static inline uint8_t vow_load_acquiring(const uint8_t *_Nonnull address) {
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

/// Stores `value` into `*address` with releasing ordering.
static inline void vow_store_releasing(uint8_t *_Nonnull address, uint8_t value) {
    __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

/// Loads the pointer at `*address` with acquiring ordering.
static inline void *_Nullable vow_load_pointer_acquiring(void *_Nullable const *_Nonnull address) {
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

/// Stores `value` into the pointer at `*address` with releasing ordering.
static inline void vow_store_pointer_releasing(void *_Nullable *_Nonnull address, void *_Nullable value) {
    __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

/// Loads `*address` with relaxed ordering.
static inline uint32_t vow_load32_relaxed(const uint32_t *_Nonnull address) {
    return __atomic_load_n(address, __ATOMIC_RELAXED);
}

/// Loads `*address` with acquiring ordering.
static inline uint32_t vow_load32_acquiring(const uint32_t *_Nonnull address) {
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

/// Sets the bits of `bits` in `*address` with a relaxed load and a releasing store: not one
/// atomic change, so only for a word whose concurrent changes may be lost (see `BoxStatus`).
static inline void vow_set_bits32_releasing(uint32_t *_Nonnull address, uint32_t bits) {
    __atomic_store_n(address, __atomic_load_n(address, __ATOMIC_RELAXED) | bits, __ATOMIC_RELEASE);
}

/// Sets the bits of `bits` in `*address` and returns what it held, sequentially consistent.
static inline uint32_t vow_fetch_or32(uint32_t *_Nonnull address, uint32_t bits) {
    return __atomic_fetch_or(address, bits, __ATOMIC_SEQ_CST);
}

/// Keeps only the bits of `mask` in `*address` and returns what it held, sequentially
/// consistent.
static inline uint32_t vow_fetch_and32(uint32_t *_Nonnull address, uint32_t mask) {
    return __atomic_fetch_and(address, mask, __ATOMIC_SEQ_CST);
}

/// Replaces `*address` with `desired` if it holds `*expected`, sequentially consistent;
/// otherwise stores what it holds in `*expected`. Returns whether it replaced it.
static inline bool vow_compare_exchange32(uint32_t *_Nonnull address, uint32_t *_Nonnull expected, uint32_t desired) {
    return __atomic_compare_exchange_n(address, expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/// The address of the calling function's frame on the thread's stack. Taken from the frame
/// rather than from a local variable, which AddressSanitizer may move to a heap-allocated fake
/// frame, far from the stack it measures.
static inline uintptr_t vow_current_frame_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

/// Stores the lowest address of the calling thread's stack in `*bottom` and returns `true`,
/// or returns `false` if the system does not tell.
bool vow_current_stack_bottom(uintptr_t *_Nonnull bottom);

/// The calling thread's trampoline, which Vow keeps as the thread's own until it ends.
extern _Thread_local void *_Nullable vow_trampoline;

/// The calling thread's trampoline, or `NULL` before its first handler run. A C thread-local
/// rather than a pthread key's slot alone, which would cost a call at every handler run; the
/// key remains, for its destructor, which releases the trampoline when the thread ends.
static inline void *_Nullable vow_thread_trampoline(void) {
    return vow_trampoline;
}

/// Makes `trampoline` the calling thread's, or forgets it when `NULL`.
static inline void vow_set_thread_trampoline(void *_Nullable trampoline) {
    vow_trampoline = trampoline;
}

/// The actor's mailbox whose task runs on the calling thread, while it runs a handler.
extern _Thread_local void *_Nullable vow_running_mailbox;

/// The mailbox whose handler the calling thread runs, or `NULL`: a handler it sends to the same
/// actor joins that task's own list, with no lock.
static inline void *_Nullable vow_thread_running_mailbox(void) {
    return vow_running_mailbox;
}

/// Marks the calling thread as running `mailbox`'s handlers, or as not, with `NULL`.
static inline void vow_set_thread_running_mailbox(void *_Nullable mailbox) {
    vow_running_mailbox = mailbox;
}

/// The state of Vow's watch over the main queue (MainQueueWatch.swift): a C global, so that
/// the check on every hop to a queue is one load, with no lazy initialization to go through.
extern uint32_t vow_main_queue_watch;

/// The watch's state, read with no ordering: it only decides whether to take the slow path.
static inline uint32_t vow_main_queue_watch_state(void) {
    return __atomic_load_n(&vow_main_queue_watch, __ATOMIC_RELAXED);
}

/// Moves the watch from `expected` to `desired`, if it is in `expected`; returns whether it did.
static inline bool vow_main_queue_watch_move(uint32_t expected, uint32_t desired) {
    return __atomic_compare_exchange_n(
        &vow_main_queue_watch, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/// The `DispatchQueue` object through which Vow sends handlers to the main queue, stored once,
/// as it is made (MainQueueWatch.swift), so that a hop tells the main queue apart with one load
/// and no lazy initialization. Until then it is `NULL`, which no queue's address equals.
extern void *_Nullable vow_main_queue_object;

/// The object in `vow_main_queue_object`, read with no ordering: a handler that holds that
/// object got it from the same one-time initialization that stored it, which ordered the
/// store before the handler's read.
static inline void *_Nullable vow_main_queue_object_load(void) {
    return __atomic_load_n(&vow_main_queue_object, __ATOMIC_RELAXED);
}

/// Stores the main queue's object, once.
static inline void vow_main_queue_object_store(void *_Nullable object) {
    __atomic_store_n(&vow_main_queue_object, object, __ATOMIC_RELEASE);
}

/// A concurrent libdispatch queue, used by Vow as a reader-writer lock.
typedef struct vow_barrier_queue_s vow_barrier_queue;

/// A work function as libdispatch's `_f` entry points take it, with the context it is given.
typedef void (*vow_barrier_work)(void *_Nullable context);

/// How many barrier queues the pool has: a power of two, so that picking a queue masks the
/// address rather than dividing it (a division costs some thirty cycles, and every barrier picks
/// a queue).
#define VOW_BARRIER_POOL_SIZE 16

/// The pool of barrier queues, null until `vow_barrier_pool_make` has made it. Only
/// `vow_barrier_queue_for` reads it.
extern vow_barrier_queue *_Nonnull *_Nullable vow_barrier_pool;

/// Makes the pool, once, and returns it; see `vow_barrier_queue_for`.
vow_barrier_queue *_Nonnull *_Nonnull vow_barrier_pool_make(void);

/// The queue of the pool that guards the object at `address`, made with the pool on first use.
///
/// Inline, so that once the pool exists a barrier finds its queue in one load and a mask: the
/// pool is a C global rather than a Swift `static let`, whose every read goes through
/// `swift_once`.
static inline vow_barrier_queue *_Nonnull vow_barrier_queue_for(uintptr_t address) {
    vow_barrier_queue **pool = __atomic_load_n(&vow_barrier_pool, __ATOMIC_ACQUIRE);
    if (__builtin_expect(pool == 0, 0)) {
        pool = vow_barrier_pool_make();
    }
    // Heap objects are at least 16-byte aligned, so the low four bits carry no information.
    return pool[(address >> 4) & (VOW_BARRIER_POOL_SIZE - 1)];
}

/// Runs `work(context)` on `queue` concurrently with other reads, but never during a write,
/// and returns when it has run.
void vow_barrier_queue_read(vow_barrier_queue *_Nonnull queue, void *_Nullable context, vow_barrier_work _Nonnull work);

/// Runs `work(context)` on `queue` as a barrier: alone, after every earlier block and before
/// every later one. Returns when it has run.
void vow_barrier_queue_write(vow_barrier_queue *_Nonnull queue, void *_Nullable context, vow_barrier_work _Nonnull work);

/// Runs `work(context)` on the main queue, after the blocks already there, and returns at once:
/// libdispatch's `dispatch_async_f`, which takes a function and one context pointer where the
/// Swift overlay's `async` copies a closure into a block on the heap.
void vow_main_queue_async(void *_Nullable context, vow_barrier_work _Nonnull work);

#endif
