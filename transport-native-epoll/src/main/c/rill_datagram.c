/*
 * UDP: datagram sockets, batches of datagrams in one system call each way (recvmmsg/sendmmsg),
 * disconnect, and multicast membership. Java describes a batch in native memory it reuses:
 *
 *   receive, per datagram:  in  | u64 buffer address | u64 capacity |                      (16 bytes)
 *                           out | i32 length | i32 address length (4, 16 or 0) | u8[16] address
 *                               | i32 port | i32 scope id |                                 (32 bytes)
 *   send, per datagram:         | u64 buffer address | u64 length | i32 address length (0: connected)
 *                               | i32 port | i32 scope id | i32 pad | u8[16] address |    (48 bytes)
 *
 * An IPv6 socket reports IPv4 peers as 4-byte addresses and takes them the same way, as in
 * rill_socket.c. At most RILL_BATCH datagrams per call: the arrays live on the C stack.
 */
#define _GNU_SOURCE /* recvmmsg, sendmmsg */
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include "rill_jni.h"

#define RILL_BATCH 64

static jint rill_socket_dgram(JNIEnv *env, jclass clazz, jboolean ipv6) {
    return rill_result(socket(ipv6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
}

/* Writes a received sender address in the "out" layout at o + 4. */
static void rill_put_sender(char *o, const struct sockaddr_storage *sa) {
    int32_t len = 0;
    int32_t port = 0;
    int32_t scope = 0;
    memset(o + 8, 0, 16); /* so Java can compare whole entries to spot a repeated sender */
    if (sa->ss_family == AF_INET) {
        const struct sockaddr_in *in4 = (const struct sockaddr_in *) sa;
        memcpy(o + 8, &in4->sin_addr, 4);
        port = ntohs(in4->sin_port);
        len = 4;
    } else if (sa->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) sa;
        port = ntohs(in6->sin6_port);
        if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
            memcpy(o + 8, &in6->sin6_addr.s6_addr[12], 4);
            len = 4;
        } else {
            memcpy(o + 8, in6->sin6_addr.s6_addr, 16);
            scope = (int32_t) in6->sin6_scope_id;
            len = 16;
        }
    }
    memcpy(o + 4, &len, 4);
    memcpy(o + 24, &port, 4);
    memcpy(o + 28, &scope, 4);
}

/* Receives up to count datagrams; returns how many, or -errno (-EAGAIN when none is waiting). */
static jint rill_recvmmsg(JNIEnv *env, jclass clazz, jint fd, jlong in, jlong out, jint count) {
    struct mmsghdr msgs[RILL_BATCH];
    struct iovec iov[RILL_BATCH];
    struct sockaddr_storage addrs[RILL_BATCH];
    int n = count < RILL_BATCH ? count : RILL_BATCH;
    const char *i_base = (const char *) (intptr_t) in;
    memset(msgs, 0, sizeof(struct mmsghdr) * n);
    for (int i = 0; i < n; i++) {
        uint64_t address;
        uint64_t capacity;
        memcpy(&address, i_base + i * 16, 8);
        memcpy(&capacity, i_base + i * 16 + 8, 8);
        iov[i].iov_base = (void *) (intptr_t) address;
        iov[i].iov_len = (size_t) capacity;
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
        msgs[i].msg_hdr.msg_name = &addrs[i];
        msgs[i].msg_hdr.msg_namelen = sizeof(addrs[i]);
    }
    int r;
    do {
        r = recvmmsg(fd, msgs, (unsigned int) n, 0, NULL);
    } while (r < 0 && errno == EINTR);
    if (r < 0) {
        return -errno;
    }
    char *o_base = (char *) (intptr_t) out;
    for (int i = 0; i < r; i++) {
        int32_t len = (int32_t) msgs[i].msg_len;
        memcpy(o_base + i * 32, &len, 4);
        rill_put_sender(o_base + i * 32, &addrs[i]);
    }
    return r;
}

/* Fills *sa from one "send" entry; returns its length, 0 for "connected, no address". */
static socklen_t rill_recipient(jboolean ipv6, const char *e, struct sockaddr_storage *sa) {
    int32_t len;
    int32_t port;
    int32_t scope;
    memcpy(&len, e + 16, 4);
    memcpy(&port, e + 20, 4);
    memcpy(&scope, e + 24, 4);
    memset(sa, 0, sizeof(*sa));
    if (len == 0) {
        return 0;
    }
    if (ipv6) {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) sa;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t) port);
        in6->sin6_scope_id = (uint32_t) scope;
        if (len == 4) {
            in6->sin6_addr.s6_addr[10] = 0xff;
            in6->sin6_addr.s6_addr[11] = 0xff;
            memcpy(&in6->sin6_addr.s6_addr[12], e + 32, 4);
        } else {
            memcpy(in6->sin6_addr.s6_addr, e + 32, 16);
        }
        return sizeof(struct sockaddr_in6);
    }
    struct sockaddr_in *in4 = (struct sockaddr_in *) sa;
    in4->sin_family = AF_INET;
    in4->sin_port = htons((uint16_t) port);
    memcpy(&in4->sin_addr, e + 32, 4);
    return len == 4 ? sizeof(struct sockaddr_in) : (socklen_t) -1;
}

/* Sends up to count datagrams; returns how many went, or -errno of the first (-EAGAIN: full). */
static jint rill_sendmmsg(JNIEnv *env, jclass clazz, jint fd, jboolean ipv6, jlong in, jint count) {
    struct mmsghdr msgs[RILL_BATCH];
    struct iovec iov[RILL_BATCH];
    struct sockaddr_storage addrs[RILL_BATCH];
    int n = count < RILL_BATCH ? count : RILL_BATCH;
    const char *base = (const char *) (intptr_t) in;
    memset(msgs, 0, sizeof(struct mmsghdr) * n);
    for (int i = 0; i < n; i++) {
        const char *e = base + i * 48;
        uint64_t address;
        uint64_t length;
        memcpy(&address, e, 8);
        memcpy(&length, e + 8, 8);
        iov[i].iov_base = (void *) (intptr_t) address;
        iov[i].iov_len = (size_t) length;
        socklen_t namelen = rill_recipient(ipv6, e, &addrs[i]);
        if (namelen == (socklen_t) -1) {
            return -EAFNOSUPPORT; /* an IPv6 recipient for an IPv4 socket */
        }
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
        msgs[i].msg_hdr.msg_name = namelen == 0 ? NULL : &addrs[i];
        msgs[i].msg_hdr.msg_namelen = namelen;
    }
    int r;
    do {
        r = sendmmsg(fd, msgs, (unsigned int) n, MSG_NOSIGNAL);
    } while (r < 0 && errno == EINTR);
    return rill_result(r);
}

/* Dissolves a UDP connect (connect to AF_UNSPEC). */
static jint rill_disconnect(JNIEnv *env, jclass clazz, jint fd) {
    struct sockaddr sa = {0};
    sa.sa_family = AF_UNSPEC;
    int r = connect(fd, &sa, sizeof(sa));
    return r < 0 && errno != EAFNOSUPPORT ? -errno : 0; /* some kernels answer EAFNOSUPPORT yet disconnect */
}

/* Joins or leaves multicast group (4 or 16 bytes) on interface ifindex (0: the kernel's choice). */
static jint rill_membership(JNIEnv *env, jclass clazz, jint fd, jboolean join, jbyteArray group, jint ifindex) {
    jsize len = (*env)->GetArrayLength(env, group);
    if (len == 4) {
        struct ip_mreqn m;
        memset(&m, 0, sizeof(m));
        (*env)->GetByteArrayRegion(env, group, 0, 4, (jbyte *) &m.imr_multiaddr);
        m.imr_ifindex = ifindex;
        return rill_result(setsockopt(fd, IPPROTO_IP, join ? IP_ADD_MEMBERSHIP : IP_DROP_MEMBERSHIP, &m, sizeof(m)));
    }
    if (len == 16) {
        struct ipv6_mreq m;
        memset(&m, 0, sizeof(m));
        (*env)->GetByteArrayRegion(env, group, 0, 16, (jbyte *) &m.ipv6mr_multiaddr);
        m.ipv6mr_interface = (unsigned int) ifindex;
        return rill_result(setsockopt(fd, IPPROTO_IPV6, join ? IPV6_ADD_MEMBERSHIP : IPV6_DROP_MEMBERSHIP, &m, sizeof(m)));
    }
    return -EINVAL;
}

const JNINativeMethod rill_datagram_methods[] = {
    {"socketDgram", "(Z)I", (void *) rill_socket_dgram},
    {"recvmmsg", "(IJJI)I", (void *) rill_recvmmsg},
    {"sendmmsg", "(IZJI)I", (void *) rill_sendmmsg},
    {"disconnect", "(I)I", (void *) rill_disconnect},
    {"membership", "(IZ[BI)I", (void *) rill_membership},
};
const int rill_datagram_method_count = sizeof(rill_datagram_methods) / sizeof(rill_datagram_methods[0]);
