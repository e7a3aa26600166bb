/*
 * Moving bytes: read and write between a socket and native memory (a direct buffer's address),
 * gathering writev from an iovec array Java filled in place, and sendfile from a file this
 * library opened (Java cannot see the descriptor behind a FileChannel). EAGAIN comes back as
 * -EAGAIN like any error; a read of 0 bytes is end of stream.
 */
#include <stdint.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/uio.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include "rill_jni.h"

/*
 * recv rather than read: every descriptor here is a socket, and read(2) reaches the same socket
 * code through the file layer (position lock, access checks) first, a few hundred nanoseconds of
 * kernel time per call that recv(2) does not spend.
 */
static jint rill_read(JNIEnv *env, jclass clazz, jint fd, jlong address, jint length) {
    ssize_t r;
    do {
        r = recv(fd, (void *) (intptr_t) address, (size_t) length, 0);
    } while (r < 0 && errno == EINTR);
    return rill_result((int) r);
}

/* send with MSG_NOSIGNAL: a peer that went away is EPIPE, not a SIGPIPE for the whole JVM. */
static jint rill_write(JNIEnv *env, jclass clazz, jint fd, jlong address, jint length) {
    ssize_t r;
    do {
        r = send(fd, (const void *) (intptr_t) address, (size_t) length, MSG_NOSIGNAL);
    } while (r < 0 && errno == EINTR);
    return rill_result((int) r);
}

/* sendmsg rather than writev for the same reason as rill_write. */
static jlong rill_writev(JNIEnv *env, jclass clazz, jint fd, jlong iov, jint count) {
    struct msghdr msg = {0};
    msg.msg_iov = (struct iovec *) (intptr_t) iov;
    msg.msg_iovlen = (size_t) count;
    ssize_t r;
    do {
        r = sendmsg(fd, &msg, MSG_NOSIGNAL);
    } while (r < 0 && errno == EINTR);
    return r < 0 ? -errno : (jlong) r;
}

/* Opens path (modified UTF-8, as Java hands it) for sendfile. */
static jint rill_open_read_only(JNIEnv *env, jclass clazz, jstring path) {
    const char *p = (*env)->GetStringUTFChars(env, path, NULL);
    if (p == NULL) {
        return -ENOMEM;
    }
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    int err = errno;
    (*env)->ReleaseStringUTFChars(env, path, p);
    return fd < 0 ? -err : fd;
}

static jlong rill_sendfile(JNIEnv *env, jclass clazz, jint out, jint in, jlong offset, jlong count) {
    off_t off = (off_t) offset;
    ssize_t r;
    do {
        r = sendfile(out, in, &off, (size_t) count);
    } while (r < 0 && errno == EINTR);
    return r < 0 ? -errno : (jlong) r;
}

static jint rill_iov_size(JNIEnv *env, jclass clazz) {
    return (jint) sizeof(struct iovec);
}

static jint rill_iov_max(JNIEnv *env, jclass clazz) {
    long max = sysconf(_SC_IOV_MAX);
    return max > 0 ? (jint) max : 1024;
}

const JNINativeMethod rill_io_methods[] = {
    {"read", "(IJI)I", (void *) rill_read},
    {"write", "(IJI)I", (void *) rill_write},
    {"writev", "(IJI)J", (void *) rill_writev},
    {"openReadOnly", "(Ljava/lang/String;)I", (void *) rill_open_read_only},
    {"sendfile", "(IIJJ)J", (void *) rill_sendfile},
    {"iovSize", "()I", (void *) rill_iov_size},
    {"iovMax", "()I", (void *) rill_iov_max},
};
const int rill_io_method_count = sizeof(rill_io_methods) / sizeof(rill_io_methods[0]);
