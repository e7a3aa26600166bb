/*
 * Unix-domain stream sockets: creation, bind and connect by path, addresses, passing descriptors
 * (SCM_RIGHTS) and the peer's credentials (SO_PEERCRED). A path crosses the boundary as a Java
 * byte[] (UTF-8, no terminating NUL); abstract-namespace names are not supported.
 *
 * A descriptor travels with one byte of ordinary data, since a message without data is not
 * delivered on a stream socket; the receiving side reads exactly that byte with it.
 */
#define _GNU_SOURCE /* struct ucred, MSG_CMSG_CLOEXEC */
#include <stdint.h>
#include <string.h>
#include <stddef.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "rill_jni.h"

/* rill_recv_fd's results besides -errno: end of stream, and a byte that carried no descriptor. */
#define RILL_FD_RECEIVED (1LL << 32)
#define RILL_NO_FD (1LL << 33)

static jint rill_socket_domain(JNIEnv *env, jclass clazz) {
    return rill_result(socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
}

/* Fills *sa with the path; returns its length or 0 if the path does not fit. */
static socklen_t rill_sockaddr_un(JNIEnv *env, jbyteArray path, struct sockaddr_un *sa) {
    jsize len = (*env)->GetArrayLength(env, path);
    memset(sa, 0, sizeof(*sa));
    if (len <= 0 || (size_t) len >= sizeof(sa->sun_path)) {
        return 0;
    }
    sa->sun_family = AF_UNIX;
    (*env)->GetByteArrayRegion(env, path, 0, len, (jbyte *) sa->sun_path);
    return (socklen_t) (offsetof(struct sockaddr_un, sun_path) + len + 1);
}

static jint rill_bind_domain(JNIEnv *env, jclass clazz, jint fd, jbyteArray path) {
    struct sockaddr_un sa;
    socklen_t len = rill_sockaddr_un(env, path, &sa);
    return len == 0 ? -ENAMETOOLONG : rill_result(bind(fd, (struct sockaddr *) &sa, len));
}

/* 0 when connected; a Unix-domain connect does not stay in progress (a full backlog is -EAGAIN). */
static jint rill_connect_domain(JNIEnv *env, jclass clazz, jint fd, jbyteArray path) {
    struct sockaddr_un sa;
    socklen_t len = rill_sockaddr_un(env, path, &sa);
    if (len == 0) {
        return -ENAMETOOLONG;
    }
    int r;
    do {
        r = connect(fd, (struct sockaddr *) &sa, len);
    } while (r < 0 && errno == EINTR);
    return rill_result(r);
}

/* Copies the local or peer path into out (at least 108 bytes); returns its length, 0 if unnamed. */
static jint rill_domain_address(JNIEnv *env, jclass clazz, jint fd, jboolean local, jbyteArray out) {
    struct sockaddr_un sa;
    socklen_t len = sizeof(sa);
    memset(&sa, 0, sizeof(sa));
    int r = local ? getsockname(fd, (struct sockaddr *) &sa, &len) : getpeername(fd, (struct sockaddr *) &sa, &len);
    if (r < 0) {
        return -errno;
    }
    if (len <= offsetof(struct sockaddr_un, sun_path) || sa.sun_path[0] == '\0') {
        return 0;
    }
    jsize n = (jsize) strnlen(sa.sun_path, sizeof(sa.sun_path));
    (*env)->SetByteArrayRegion(env, out, 0, n, (const jbyte *) sa.sun_path);
    return n;
}

/* Sends one byte carrying a copy of fd_to_send; returns 1 or -errno (-EAGAIN when full). */
static jint rill_send_fd(JNIEnv *env, jclass clazz, jint fd, jint fd_to_send) {
    char data = 0;
    struct iovec iov = {&data, 1};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr msg = {0};
    memset(&control, 0, sizeof(control));
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof(control.buf);
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cmsg), &fd_to_send, sizeof(int));
    ssize_t r;
    do {
        r = sendmsg(fd, &msg, MSG_NOSIGNAL);
    } while (r < 0 && errno == EINTR);
    return rill_result((int) r);
}

/*
 * Receives one byte and the descriptor it carries (close-on-exec): RILL_FD_RECEIVED | fd, 0 at end
 * of stream, RILL_NO_FD for a byte without one, or -errno (-EAGAIN when nothing is waiting).
 */
static jlong rill_recv_fd(JNIEnv *env, jclass clazz, jint fd) {
    char data;
    struct iovec iov = {&data, 1};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof(control.buf);
    ssize_t r;
    do {
        r = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
    } while (r < 0 && errno == EINTR);
    if (r < 0) {
        return -errno;
    }
    if (r == 0) {
        return 0;
    }
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int))) {
            int received;
            memcpy(&received, CMSG_DATA(c), sizeof(int));
            return RILL_FD_RECEIVED | (uint32_t) received;
        }
    }
    return RILL_NO_FD;
}

/* Fills out with the peer's pid, uid and gid (as when it connected). */
static jint rill_peer_credentials(JNIEnv *env, jclass clazz, jint fd, jintArray out) {
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
        return -errno;
    }
    jint values[3] = {(jint) cred.pid, (jint) cred.uid, (jint) cred.gid};
    (*env)->SetIntArrayRegion(env, out, 0, 3, values);
    return 0;
}

const JNINativeMethod rill_unix_methods[] = {
    {"socketDomain", "()I", (void *) rill_socket_domain},
    {"bindDomain", "(I[B)I", (void *) rill_bind_domain},
    {"connectDomain", "(I[B)I", (void *) rill_connect_domain},
    {"domainAddress", "(IZ[B)I", (void *) rill_domain_address},
    {"sendFd", "(II)I", (void *) rill_send_fd},
    {"recvFd", "(I)J", (void *) rill_recv_fd},
    {"peerCredentials", "(I[I)I", (void *) rill_peer_credentials},
};
const int rill_unix_method_count = sizeof(rill_unix_methods) / sizeof(rill_unix_methods[0]);
