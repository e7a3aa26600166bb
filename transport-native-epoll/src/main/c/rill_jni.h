/*
 * What the files of librill_transport_native_epoll share. Every exported function is prefixed
 * rill_, takes primitives and addresses only (file descriptors, native memory addresses, small
 * Java arrays filled in place), and returns a count, a descriptor or -errno; Java's Errors class
 * turns a negative result into an exception. The one registration table lives in rill_jni.c.
 */
#ifndef RILL_JNI_H
#define RILL_JNI_H

#include <jni.h>
#include <errno.h>

/* A system call result: the value, or -errno when it failed. A function, so the call runs once. */
static inline jint rill_result(int r) {
    return r < 0 ? -errno : r;
}

/* Each file hands its part of the table to JNI_OnLoad. */
extern const JNINativeMethod rill_epoll_methods[];
extern const int rill_epoll_method_count;
extern const JNINativeMethod rill_socket_methods[];
extern const int rill_socket_method_count;
extern const JNINativeMethod rill_io_methods[];
extern const int rill_io_method_count;
extern const JNINativeMethod rill_unix_methods[];
extern const int rill_unix_method_count;
extern const JNINativeMethod rill_datagram_methods[];
extern const int rill_datagram_method_count;

#endif
