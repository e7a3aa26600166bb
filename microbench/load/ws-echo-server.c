/*
 * The physical-limit reference for ws-load.sh: a single-threaded epoll WebSocket echo server with
 * nothing in the way, the WebSocket twin of echo-server.c. It answers the HTTP/1.1 upgrade (RFC 6455
 * section 4.2.2: SHA-1 and base64 of the key, both written out below), then for every complete
 * client frame in what one read(2) brought, unmasks the payload into an unmasked frame of the same
 * opcode and FIN bit, and sends all of them with one write(2). Edge-triggered, and reading into and
 * writing from buffers all connections share, as echo-server.c: a connection holds memory of its
 * own only for the bytes of a frame not yet complete, or an echo the socket could not take whole
 * (and then reads no more until it went). No extensions, no UTF-8 check, no limits beyond its
 * buffer: it is the floor any real server stands on, not a server.
 *
 *   ws-echo-server PORT
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "write-all.h"

#define BUF (1 << 17)

struct conn {
    int fd, upgraded;
    unsigned char *rest;      /* input not yet consumed (an incomplete frame or request), or NULL */
    size_t rest_len;
    unsigned char *held;      /* an echo the socket could not take whole, or NULL */
    size_t held_len, held_off;
};

static unsigned char in[BUF], out[BUF];

static void die(const char *what) { perror(what); exit(1); }

static uint32_t rol(uint32_t x, int n) { return x << n | x >> (32 - n); }

/* SHA-1 (FIPS 180-4) of a short message, enough for a handshake key. */
static void sha1(const unsigned char *msg, size_t len, unsigned char out[20]) {
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    unsigned char block[128] = {0};
    size_t padded = len + 9 <= 64 ? 64 : 128;
    memcpy(block, msg, len);
    block[len] = 0x80;
    uint64_t bits = (uint64_t) len * 8;
    for (int i = 0; i < 8; i++) block[padded - 1 - i] = (unsigned char) (bits >> (8 * i));
    for (size_t off = 0; off < padded; off += 64) {
        uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
        for (int t = 0; t < 16; t++)
            w[t] = (uint32_t) block[off + 4 * t] << 24 | (uint32_t) block[off + 4 * t + 1] << 16
                 | (uint32_t) block[off + 4 * t + 2] << 8 | block[off + 4 * t + 3];
        for (int t = 16; t < 80; t++) w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
        for (int t = 0; t < 80; t++) {
            uint32_t f, k;
            if (t < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
            else if (t < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
            else if (t < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
            else { f = b ^ c ^ d; k = 0xCA62C1D6; }
            uint32_t tmp = rol(a, 5) + f + e + k + w[t];
            e = d; d = c; c = rol(b, 30); b = a; a = tmp;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
    }
    for (int i = 0; i < 20; i++) out[i] = (unsigned char) (h[i / 4] >> (24 - 8 * (i % 4)));
}

static void base64(const unsigned char *in, size_t len, char *out) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t) in[i] << 16 | (i + 1 < len ? in[i + 1] << 8 : 0) | (i + 2 < len ? in[i + 2] : 0);
        *out++ = digits[v >> 18 & 63];
        *out++ = digits[v >> 12 & 63];
        *out++ = i + 1 < len ? digits[v >> 6 & 63] : '=';
        *out++ = i + 2 < len ? digits[v & 63] : '=';
    }
    *out = 0;
}

static void drop(struct conn *c) { close(c->fd); free(c->rest); free(c->held); free(c); }

/* Answers the upgrade once the request in in[0, *len) is complete, consuming it and writing the
 * answer to out; returns the answer's length, 0 if the request is incomplete, -1 if it is not one. */
static long upgrade(struct conn *c, size_t *len) {
    in[*len] = 0;
    char *end = strstr((char *) in, "\r\n\r\n");
    if (end == NULL) return *len < BUF - 1 ? 0 : -1;
    char *key = strcasestr((char *) in, "\r\nSec-WebSocket-Key:");
    if (key == NULL || key > end) return -1;
    key += strlen("\r\nSec-WebSocket-Key:");
    while (*key == ' ') key++;
    char joined[128];
    int n = snprintf(joined, sizeof joined, "%.*s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", (int) strcspn(key, " \r"), key);
    if (n <= 0 || n >= (int) sizeof joined) return -1;
    unsigned char digest[20];
    char accept[32];
    sha1((unsigned char *) joined, (size_t) n, digest);
    base64(digest, 20, accept);
    long answer = snprintf((char *) out, BUF, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                           "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", accept);
    size_t used = (size_t) (end + 4 - (char *) in);
    memmove(in, in + used, *len - used);
    *len -= used;
    c->upgraded = 1;
    return answer;
}

/* dst = src XOR the 4-byte mask, eight bytes at a time (a byte loop costs a nanosecond per byte). */
static void unmask(unsigned char *dst, const unsigned char *src, const unsigned char *mask, uint64_t len) {
    uint64_t word, m;
    uint32_t m4;
    memcpy(&m4, mask, 4);
    m = (uint64_t) m4 << 32 | m4;
    uint64_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&word, src + i, 8);
        word ^= m;
        memcpy(dst + i, &word, 8);
    }
    for (; i < len; i++) dst[i] = src[i] ^ mask[i & 3];
}

/* Turns every complete masked client frame in in[0, *len) into an unmasked one in out from out_len
 * on, consuming them; returns the new length of out. */
static size_t echo_frames(size_t *len, size_t out_len) {
    size_t pos = 0;
    while (*len - pos >= 2) {
        unsigned char *f = in + pos;
        uint64_t plen = f[1] & 0x7f;
        size_t head = 2;
        if (plen == 126) { head = 4; if (*len - pos < head) break; plen = (uint64_t) f[2] << 8 | f[3]; }
        else if (plen == 127) { head = 10; if (*len - pos < head) break; plen = 0; for (int i = 2; i < 10; i++) plen = plen << 8 | f[i]; }
        if (*len - pos < head + 4 + plen || out_len + 10 + plen > BUF) break;
        unsigned char *mask = f + head, *payload = f + head + 4, *o = out + out_len;
        o[0] = f[0];
        size_t oh = 2;
        if (plen < 126) o[1] = (unsigned char) plen;
        else if (plen < 65536) { o[1] = 126; o[2] = (unsigned char) (plen >> 8); o[3] = (unsigned char) plen; oh = 4; }
        else { o[1] = 127; for (int i = 0; i < 8; i++) o[2 + i] = (unsigned char) (plen >> (56 - 8 * i)); oh = 10; }
        unmask(o + oh, payload, mask, plen);
        out_len += oh + plen;
        pos += head + 4 + plen;
    }
    memmove(in, in + pos, *len - pos);
    *len -= pos;
    return out_len;
}

/* Keeps a copy of n bytes in *dst (replacing what it held); 0, or -1 when out of memory. */
static int keep(unsigned char **dst, const unsigned char *src, size_t n) {
    free(*dst);
    *dst = NULL;
    if (n == 0) return 0;
    if ((*dst = malloc(n)) == NULL) return -1;
    memcpy(*dst, src, n);
    return 0;
}

/* Serves until the socket has nothing more to read; 0, or -1 if the connection is to be dropped. */
static int serve(struct conn *c) {
    if (c->held != NULL) {
        long w = write_some(c->fd, c->held + c->held_off, c->held_len - c->held_off);
        if (w < 0) return -1;
        c->held_off += (size_t) w;
        if (c->held_off < c->held_len) return 0; /* still full: the next EPOLLOUT edge resumes */
        free(c->held); c->held = NULL;
    }
    for (;;) {
        size_t len = c->rest_len;
        if (len > 0) memcpy(in, c->rest, len);
        ssize_t n = read(c->fd, in + len, BUF - 1 - len);
        if (n < 0) return errno == EAGAIN ? 0 : -1;
        if (n == 0) return -1;
        int drained = (size_t) n < BUF - 1 - len;
        len += (size_t) n;
        long out_len = 0;
        if (!c->upgraded && (out_len = upgrade(c, &len)) < 0) return -1;
        if (c->upgraded) out_len = (long) echo_frames(&len, (size_t) out_len);
        if (len == BUF - 1) return -1; /* a frame larger than the buffer */
        if (keep(&c->rest, in, len) < 0) return -1;
        c->rest_len = len;
        long w = write_some(c->fd, out, (size_t) out_len);
        if (w < 0) return -1;
        if (w < out_len) { /* full: keep the rest, read no more until it went */
            if (keep(&c->held, out + w, (size_t) (out_len - w)) < 0) return -1;
            c->held_len = (size_t) (out_len - w); c->held_off = 0;
            return 0;
        }
        if (drained) return 0; /* the next arrival is a new edge */
    }
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: ws-echo-server PORT\n"); return 2; }
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((unsigned short) atoi(argv[1])),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(lfd, (struct sockaddr *) &addr, sizeof addr) < 0) die("bind");
    if (listen(lfd, 4096) < 0) die("listen");
    int epfd = epoll_create1(0);
    if (epfd < 0) die("epoll_create1");
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = NULL};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &lev) < 0) die("epoll_ctl");
    printf("Listening on %s\n", argv[1]);
    fflush(stdout);
    struct epoll_event events[4096];
    for (;;) {
        int n = epoll_wait(epfd, events, 4096, -1);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("epoll_wait");
        for (int i = 0; i < n; i++) {
            struct conn *c = events[i].data.ptr;
            if (c != NULL) {
                if (serve(c) < 0) drop(c);
                continue;
            }
            int fd;
            while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                c = calloc(1, sizeof *c);
                if (c == NULL) { close(fd); continue; }
                c->fd = fd;
                struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, .data.ptr = c};
                if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) die("epoll_ctl");
            }
        }
    }
}
