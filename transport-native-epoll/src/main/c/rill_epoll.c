/*
 * The poller: an epoll instance, an eventfd to wake it from other threads, and epoll_wait into a
 * caller-owned native array of struct epoll_event. Each registration carries the fd itself as
 * its data (low 32 bits) with the registration's id (high 32 bits), so Java can map an event back
 * to its channel and drop one meant for a closed descriptor whose number was reused meanwhile.
 */
#include <stdint.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include "rill_jni.h"

static jint rill_epoll_create(JNIEnv *env, jclass clazz) {
    return rill_result(epoll_create1(EPOLL_CLOEXEC));
}

/* op: 1 add, 2 delete, 3 modify: the kernel's EPOLL_CTL_* values, which Native.java repeats (asserted below). */
static jint rill_epoll_ctl(JNIEnv *env, jclass clazz, jint epfd, jint op, jint fd, jint events, jint id) {
    struct epoll_event ev = {0};
    ev.events = (uint32_t) events;
    ev.data.u64 = ((uint64_t) (uint32_t) id << 32) | (uint32_t) fd;
    return rill_result(epoll_ctl(epfd, op, fd, &ev));
}

/* Returns the number of ready events, 0 on timeout or EINTR (the caller loops anyway), or -errno. */
static jint rill_epoll_wait(JNIEnv *env, jclass clazz, jint epfd, jlong events, jint max, jint timeout_ms) {
    int n = epoll_wait(epfd, (struct epoll_event *) (intptr_t) events, max, timeout_ms);
    if (n < 0 && errno == EINTR) {
        return 0;
    }
    return rill_result(n);
}

static jint rill_eventfd_create(JNIEnv *env, jclass clazz) {
    return rill_result(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
}

/* Adds 1 to the counter; EAGAIN (counter saturated) means a wake-up is pending anyway. */
static jint rill_eventfd_signal(JNIEnv *env, jclass clazz, jint fd) {
    uint64_t one = 1;
    ssize_t r = write(fd, &one, sizeof(one));
    if (r < 0 && errno == EAGAIN) {
        return 0;
    }
    return rill_result((int) r);
}

/* Resets the counter so the eventfd stops being readable; EAGAIN means it already was zero. */
static jint rill_eventfd_drain(JNIEnv *env, jclass clazz, jint fd) {
    uint64_t value;
    ssize_t r = read(fd, &value, sizeof(value));
    if (r < 0 && errno == EAGAIN) {
        return 0;
    }
    return rill_result((int) r);
}

_Static_assert(EPOLL_CTL_ADD == 1 && EPOLL_CTL_DEL == 2 && EPOLL_CTL_MOD == 3, "Native.EPOLL_CTL_* values");

const JNINativeMethod rill_epoll_methods[] = {
    {"epollCreate", "()I", (void *) rill_epoll_create},
    {"epollCtl", "(IIIII)I", (void *) rill_epoll_ctl},
    {"epollWait", "(IJII)I", (void *) rill_epoll_wait},
    {"eventFd", "()I", (void *) rill_eventfd_create},
    {"eventFdSignal", "(I)I", (void *) rill_eventfd_signal},
    {"eventFdDrain", "(I)I", (void *) rill_eventfd_drain},
};
const int rill_epoll_method_count = sizeof(rill_epoll_methods) / sizeof(rill_epoll_methods[0]);
