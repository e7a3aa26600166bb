/*
 * The physical-limit reference for echo-load.sh: a single-threaded epoll echo server with nothing
 * in the way (level-triggered, one read and one write per message, no allocation per message).
 * What the kernel costs here, every server pays; what any JVM server costs above it is its own.
 * It prints "Listening on PORT" like the Java servers, so the scripts start them the same way.
 *
 *   echo-server PORT
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define BUF 65536

struct conn {
    int fd;
    size_t pending, offset; /* bytes read but not yet written back, when the socket was full */
    unsigned char buf[BUF];
};

static int epfd;

static void die(const char *what) { perror(what); exit(1); }

static void set_events(struct conn *c, unsigned events, int op) {
    struct epoll_event ev = {.events = events, .data.ptr = c};
    if (epoll_ctl(epfd, op, c->fd, &ev) < 0) die("epoll_ctl");
}

static void drop(struct conn *c) {
    close(c->fd); /* closing removes it from the epoll set */
    free(c);
}

/* Writes what is pending; returns 0 when all went, 1 when the socket is full, -1 on error. */
static int write_pending(struct conn *c) {
    while (c->pending > 0) {
        ssize_t n = write(c->fd, c->buf + c->offset, c->pending);
        if (n < 0 && errno == EAGAIN) return 1;
        if (n < 0) return -1;
        c->offset += (size_t) n; c->pending -= (size_t) n;
    }
    return 0;
}

static void on_event(struct conn *c, unsigned events) {
    if (events & EPOLLOUT) {
        int r = write_pending(c);
        if (r < 0) { drop(c); return; }
        if (r > 0) return;
        set_events(c, EPOLLIN, EPOLL_CTL_MOD); /* read again only once the echo is out */
        return;
    }
    ssize_t n = read(c->fd, c->buf, BUF);
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) { drop(c); return; }
    c->pending = (size_t) n; c->offset = 0;
    int r = write_pending(c);
    if (r < 0) drop(c);
    else if (r > 0) set_events(c, EPOLLOUT, EPOLL_CTL_MOD);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: echo-server PORT\n"); return 2; }
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((unsigned short) atoi(argv[1])),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(lfd, (struct sockaddr *) &addr, sizeof addr) < 0) die("bind");
    if (listen(lfd, 4096) < 0) die("listen");
    if ((epfd = epoll_create1(0)) < 0) die("epoll_create1");
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = NULL};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &lev) < 0) die("epoll_ctl");
    printf("Listening on %s\n", argv[1]);
    fflush(stdout);
    struct epoll_event events[512];
    for (;;) {
        int n = epoll_wait(epfd, events, 512, -1);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("epoll_wait");
        for (int i = 0; i < n; i++) {
            if (events[i].data.ptr != NULL) { on_event(events[i].data.ptr, events[i].events); continue; }
            int fd;
            while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                struct conn *c = malloc(sizeof *c);
                if (c == NULL) { close(fd); continue; }
                c->fd = fd; c->pending = c->offset = 0;
                set_events(c, EPOLLIN, EPOLL_CTL_ADD);
            }
        }
    }
}
