/*
 * TCP sockets: creation (non-blocking, close-on-exec), bind, listen, connect, accept4, addresses,
 * shutdown, close and options. An IP address crosses the boundary as a Java byte[] of 4 or 16
 * bytes plus port and scope id; an IPv6 socket takes IPv4 addresses in their mapped form
 * (::ffff:a.b.c.d) and hands them back as 4 bytes, so Java sees the family the peer used.
 *
 * Options are named by small ids shared with Java's Native.OPT_* (the level and name constants
 * stay here, where the C headers define them for the architecture being built).
 */
#define _GNU_SOURCE /* accept4 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include "rill_jni.h"

#ifndef TCP_FASTOPEN_CONNECT
#define TCP_FASTOPEN_CONNECT 30 /* Linux 4.11; older glibc headers lack the name */
#endif

/* Native.OPT_* ids, in order. */
static const int rill_options[][2] = {
    {SOL_SOCKET, SO_KEEPALIVE}, {SOL_SOCKET, SO_RCVBUF}, {SOL_SOCKET, SO_SNDBUF},
    {SOL_SOCKET, SO_REUSEADDR}, {SOL_SOCKET, SO_REUSEPORT}, {SOL_SOCKET, SO_BROADCAST},
    {IPPROTO_IP, IP_TOS}, {IPPROTO_TCP, TCP_NODELAY}, {IPPROTO_TCP, TCP_CORK},
    {IPPROTO_TCP, TCP_NOTSENT_LOWAT}, {IPPROTO_TCP, TCP_QUICKACK}, {IPPROTO_TCP, TCP_KEEPIDLE},
    {IPPROTO_TCP, TCP_KEEPINTVL}, {IPPROTO_TCP, TCP_KEEPCNT}, {IPPROTO_TCP, TCP_USER_TIMEOUT},
    {IPPROTO_TCP, TCP_FASTOPEN}, {IPPROTO_TCP, TCP_FASTOPEN_CONNECT}, {IPPROTO_IP, IP_FREEBIND},
    {IPPROTO_IP, IP_TRANSPARENT}, {IPPROTO_IP, IP_MULTICAST_TTL}, {IPPROTO_IP, IP_MULTICAST_LOOP},
};
#define RILL_OPTION_COUNT ((int) (sizeof(rill_options) / sizeof(rill_options[0])))
_Static_assert(RILL_OPTION_COUNT == 21, "Native.OPT_* names ids 0..20: change both together");
#define RILL_OPT_IP_TOS 6

static jint rill_socket_stream(JNIEnv *env, jclass clazz, jboolean ipv6) {
    return rill_result(socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
}

/*
 * Fills *sa from Java's (address, port, scope). Returns the length to pass to bind/connect, or
 * -EAFNOSUPPORT when the address cannot be put in the socket's family (an IPv6 address for an
 * IPv4 socket, or an array that is neither 4 nor 16 bytes): an int, so the error stays negative.
 */
static int rill_sockaddr(JNIEnv *env, jboolean ipv6, jbyteArray address, jint port, jint scope,
                               struct sockaddr_storage *sa) {
    jsize len = (*env)->GetArrayLength(env, address);
    memset(sa, 0, sizeof(*sa));
    if (ipv6) {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) sa;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t) port);
        in6->sin6_scope_id = (uint32_t) scope;
        if (len == 4) {
            in6->sin6_addr.s6_addr[10] = 0xff;
            in6->sin6_addr.s6_addr[11] = 0xff;
            (*env)->GetByteArrayRegion(env, address, 0, 4, (jbyte *) &in6->sin6_addr.s6_addr[12]);
        } else if (len == 16) {
            (*env)->GetByteArrayRegion(env, address, 0, 16, (jbyte *) in6->sin6_addr.s6_addr);
        } else {
            return -EAFNOSUPPORT;
        }
        return (int) sizeof(struct sockaddr_in6);
    }
    struct sockaddr_in *in4 = (struct sockaddr_in *) sa;
    if (len != 4) {
        return -EAFNOSUPPORT; /* an IPv6 address on an IPv4 socket */
    }
    in4->sin_family = AF_INET;
    in4->sin_port = htons((uint16_t) port);
    (*env)->GetByteArrayRegion(env, address, 0, 4, (jbyte *) &in4->sin_addr);
    return (int) sizeof(struct sockaddr_in);
}

static jint rill_bind(JNIEnv *env, jclass clazz, jint fd, jboolean ipv6, jbyteArray address, jint port, jint scope) {
    struct sockaddr_storage sa;
    int len = rill_sockaddr(env, ipv6, address, port, scope, &sa);
    if (len < 0) {
        return len;
    }
    return rill_result(bind(fd, (struct sockaddr *) &sa, (socklen_t) len));
}

/* 0 when connected at once, -EINPROGRESS while in flight (finish with rill_finish_connect). */
static jint rill_connect(JNIEnv *env, jclass clazz, jint fd, jboolean ipv6, jbyteArray address, jint port, jint scope) {
    struct sockaddr_storage sa;
    int len = rill_sockaddr(env, ipv6, address, port, scope, &sa);
    if (len < 0) {
        return len;
    }
    int r;
    do {
        r = connect(fd, (struct sockaddr *) &sa, (socklen_t) len);
    } while (r < 0 && errno == EINTR);
    return rill_result(r);
}

/* After write readiness: 0 if connected, else -(the connect's error). */
static jint rill_finish_connect(JNIEnv *env, jclass clazz, jint fd) {
    int err = 0;
    socklen_t len = sizeof(err);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) {
        return -errno;
    }
    return -err;
}

static jint rill_listen(JNIEnv *env, jclass clazz, jint fd, jint backlog) {
    return rill_result(listen(fd, backlog));
}

/* Defined below; accept reports the peer in the same layout. */
static jint rill_write_address(JNIEnv *env, const struct sockaddr_storage *sa, jbyteArray out);

/*
 * The accepted descriptor, non-blocking and close-on-exec, or -EAGAIN when none is pending. The
 * peer's address goes into peer (23 bytes: rill_write_address's 22, then its length in byte 22),
 * so the channel needs no getpeername, which fails once the peer has reset the connection.
 */
static jint rill_accept(JNIEnv *env, jclass clazz, jint fd, jbyteArray peer) {
    struct sockaddr_storage sa;
    socklen_t len;
    int r;
    do {
        len = sizeof(sa);
        r = accept4(fd, (struct sockaddr *) &sa, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    } while (r < 0 && errno == EINTR);
    if (r < 0) {
        return -errno;
    }
    jbyte family_len = (jbyte) rill_write_address(env, &sa, peer);
    (*env)->SetByteArrayRegion(env, peer, 22, 1, &family_len);
    return r;
}

/*
 * Writes the address into out: bytes 0..15 the address, 16..17 the port (big-endian), 18..21
 * the scope id. Returns the address length (4 or 16), 0 for a family other than IP, or -errno.
 */
static jint rill_write_address(JNIEnv *env, const struct sockaddr_storage *sa, jbyteArray out) {
    jbyte buf[22] = {0};
    jint len;
    uint16_t port;
    uint32_t scope = 0;
    if (sa->ss_family == AF_INET) {
        const struct sockaddr_in *in4 = (const struct sockaddr_in *) sa;
        memcpy(buf, &in4->sin_addr, 4);
        port = in4->sin_port;
        len = 4;
    } else if (sa->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) sa;
        port = in6->sin6_port;
        if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
            memcpy(buf, &in6->sin6_addr.s6_addr[12], 4);
            len = 4;
        } else {
            memcpy(buf, in6->sin6_addr.s6_addr, 16);
            scope = htonl(in6->sin6_scope_id);
            len = 16;
        }
    } else {
        return 0;
    }
    memcpy(buf + 16, &port, 2);
    memcpy(buf + 18, &scope, 4);
    (*env)->SetByteArrayRegion(env, out, 0, 22, buf);
    return len;
}

static jint rill_local_address(JNIEnv *env, jclass clazz, jint fd, jbyteArray out) {
    struct sockaddr_storage sa;
    socklen_t len = sizeof(sa);
    if (getsockname(fd, (struct sockaddr *) &sa, &len) < 0) {
        return -errno;
    }
    return rill_write_address(env, &sa, out);
}

static jint rill_remote_address(JNIEnv *env, jclass clazz, jint fd, jbyteArray out) {
    struct sockaddr_storage sa;
    socklen_t len = sizeof(sa);
    if (getpeername(fd, (struct sockaddr *) &sa, &len) < 0) {
        return -errno;
    }
    return rill_write_address(env, &sa, out);
}

static jint rill_shutdown(JNIEnv *env, jclass clazz, jint fd, jboolean input, jboolean output) {
    int how = input && output ? SHUT_RDWR : input ? SHUT_RD : SHUT_WR;
    return rill_result(shutdown(fd, how));
}

/* Never retried on EINTR: on Linux the descriptor is released even then. */
static jint rill_close(JNIEnv *env, jclass clazz, jint fd) {
    int r = close(fd);
    return r < 0 && errno != EINTR ? -errno : 0;
}

/* The option's value (never negative for the options we name), or -errno. */
static jlong rill_get_option(JNIEnv *env, jclass clazz, jint fd, jint option) {
    if (option < 0 || option >= RILL_OPTION_COUNT) {
        return -EINVAL;
    }
    int value = 0;
    socklen_t len = sizeof(value);
    if (getsockopt(fd, rill_options[option][0], rill_options[option][1], &value, &len) < 0) {
        return -errno;
    }
    return (jlong) (uint32_t) value;
}

static jint rill_set_option(JNIEnv *env, jclass clazz, jint fd, jint option, jint value) {
    if (option < 0 || option >= RILL_OPTION_COUNT) {
        return -EINVAL;
    }
    int v = value;
    if (setsockopt(fd, rill_options[option][0], rill_options[option][1], &v, sizeof(v)) < 0) {
        return -errno;
    }
    if (option == RILL_OPT_IP_TOS) {
        /* On an IPv6 socket IP_TOS covers mapped IPv4 traffic only; set the IPv6 class too (fails on IPv4: fine). */
        setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &v, sizeof(v));
    }
    return 0;
}

/* SO_LINGER as (on << 32) | seconds, so it is never negative; or -errno. */
static jlong rill_get_linger(JNIEnv *env, jclass clazz, jint fd) {
    struct linger l;
    socklen_t len = sizeof(l);
    if (getsockopt(fd, SOL_SOCKET, SO_LINGER, &l, &len) < 0) {
        return -errno;
    }
    return ((jlong) (l.l_onoff != 0) << 32) | (uint32_t) l.l_linger;
}

static jint rill_set_linger(JNIEnv *env, jclass clazz, jint fd, jint seconds) {
    struct linger l = {seconds >= 0, seconds >= 0 ? seconds : 0};
    return rill_result(setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l)));
}

/* Copies struct tcp_info's fields, in TcpInfo's order, into out (at least 24 longs). */
static jint rill_tcp_info(JNIEnv *env, jclass clazz, jint fd, jlongArray out) {
    struct tcp_info ti;
    socklen_t len = sizeof(ti);
    memset(&ti, 0, sizeof(ti));
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0) {
        return -errno;
    }
    jlong v[] = {
        ti.tcpi_state, ti.tcpi_ca_state, ti.tcpi_retransmits, ti.tcpi_probes, ti.tcpi_backoff,
        ti.tcpi_options, ti.tcpi_snd_wscale, ti.tcpi_rcv_wscale, ti.tcpi_rto, ti.tcpi_ato,
        ti.tcpi_snd_mss, ti.tcpi_rcv_mss, ti.tcpi_unacked, ti.tcpi_sacked, ti.tcpi_lost,
        ti.tcpi_retrans, ti.tcpi_last_data_sent, ti.tcpi_last_data_recv, ti.tcpi_pmtu,
        ti.tcpi_rcv_ssthresh, ti.tcpi_rtt, ti.tcpi_rttvar, ti.tcpi_snd_ssthresh, ti.tcpi_snd_cwnd,
        ti.tcpi_advmss, ti.tcpi_reordering, ti.tcpi_rcv_space, ti.tcpi_total_retrans,
    };
    jsize n = (jsize) (sizeof(v) / sizeof(v[0]));
    if ((*env)->GetArrayLength(env, out) < n) {
        return -EINVAL;
    }
    (*env)->SetLongArrayRegion(env, out, 0, n, v);
    return n;
}

/* True if this kernel gives IPv6 sockets: tried once, when Java loads the library. */
static jboolean rill_ipv6_supported(JNIEnv *env, jclass clazz) {
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return JNI_FALSE;
    }
    close(fd);
    return JNI_TRUE;
}

const JNINativeMethod rill_socket_methods[] = {
    {"socketStream", "(Z)I", (void *) rill_socket_stream},
    {"bind", "(IZ[BII)I", (void *) rill_bind},
    {"connect", "(IZ[BII)I", (void *) rill_connect},
    {"finishConnect", "(I)I", (void *) rill_finish_connect},
    {"listen", "(II)I", (void *) rill_listen},
    {"accept", "(I[B)I", (void *) rill_accept},
    {"localAddress", "(I[B)I", (void *) rill_local_address},
    {"remoteAddress", "(I[B)I", (void *) rill_remote_address},
    {"shutdown", "(IZZ)I", (void *) rill_shutdown},
    {"close", "(I)I", (void *) rill_close},
    {"getOption", "(II)J", (void *) rill_get_option},
    {"setOption", "(III)I", (void *) rill_set_option},
    {"getLinger", "(I)J", (void *) rill_get_linger},
    {"setLinger", "(II)I", (void *) rill_set_linger},
    {"tcpInfo", "(I[J)I", (void *) rill_tcp_info},
    {"isIpv6Supported", "()Z", (void *) rill_ipv6_supported},
};
const int rill_socket_method_count = sizeof(rill_socket_methods) / sizeof(rill_socket_methods[0]);
