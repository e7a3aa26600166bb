/*
 * The physical-limit reference for echo-load.sh: a single-threaded epoll echo server with nothing
 * in the way: edge-triggered (each descriptor is added once, with EPOLLIN | EPOLLOUT, and never
 * modified), one read(2) into a buffer all connections share and one write(2) back per message,
 * no allocation per message. An idle connection holds 24 bytes here; only an echo the socket
 * could not take whole is copied aside, and that connection reads no more until it went out.
 * What the kernel costs here, every server pays; what any JVM server costs above it is its own.
 * It prints "Listening on PORT" like the Java servers, so the scripts start them the same way.
 *
 *   echo-server PORT
 *
 * SPIN=NS (default 0) burns NS nanoseconds of CPU per message, touching no memory: a C server with a
 * JVM framework's user time per message, to show what saturating costs in the kernel (README,
 * "Saturated and paced").
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "write-all.h"

#define BUF 65536

struct conn {
    int fd;
    unsigned pending, offset; /* bytes of `held` not yet written back */
    unsigned char *held;      /* an echo the socket could not take whole, or NULL */
};

static unsigned char shared[BUF];
static long spin_ns;

static long long nanos(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void die(const char *what) { perror(what); exit(1); }

static void drop(struct conn *c) {
    close(c->fd); /* closing removes it from the epoll set */
    free(c->held);
    free(c);
}

/* Echoes until the socket has nothing more to read; 0, or -1 if the connection is to be dropped. */
static int serve(struct conn *c) {
    if (c->held != NULL) {
        long w = write_some(c->fd, c->held + c->offset, c->pending);
        if (w < 0) return -1;
        c->offset += (unsigned) w; c->pending -= (unsigned) w;
        if (c->pending > 0) return 0; /* still full: the next EPOLLOUT edge resumes */
        free(c->held); c->held = NULL;
    }
    for (;;) {
        ssize_t n = read(c->fd, shared, BUF);
        if (n < 0) return errno == EAGAIN ? 0 : -1;
        if (n == 0) return -1;
        if (spin_ns > 0) {
            long long until = nanos() + spin_ns;
            while (nanos() < until) {
            }
        }
        long w = write_some(c->fd, shared, (size_t) n);
        if (w < 0) return -1;
        if (w < n) { /* full: keep the rest, stop reading (back-pressure) until it went */
            c->pending = (unsigned) (n - w); c->offset = 0;
            if ((c->held = malloc(c->pending)) == NULL) return -1;
            memcpy(c->held, shared + w, c->pending);
            return 0;
        }
        if (n < BUF) return 0; /* a short read emptied the socket: the next arrival is a new edge */
    }
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: echo-server PORT\n"); return 2; }
    spin_ns = getenv("SPIN") ? atol(getenv("SPIN")) : 0;
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
