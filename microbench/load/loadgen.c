/*
 * Rill's load generator: N connections, each keeping one message in flight, on one thread with
 * epoll. Modes:
 *   echo  raw TCP: send SIZE bytes, wait until SIZE bytes came back;
 *   ws    WebSocket: an HTTP/1.1 upgrade first (no extensions offered), then a masked binary frame
 *         of SIZE payload bytes, and wait until SIZE payload bytes came back (in any number of
 *         unmasked frames);
 *  socks5 raw TCP through a SOCKS5 proxy at HOST:PORT: each connection first asks it (no
 *         authentication) to CONNECT to 127.0.0.1:SOCKS_TARGET (an environment variable, the port
 *         of an echo server), then runs as echo does.
 * Phases, so that a script can read the server's counters exactly around the measured part:
 * connect (and upgrade) every connection, warm up for WARMUP seconds, let the in-flight messages
 * finish, print "paused" and wait for a line on stdin; then measure for SECONDS, let the in-flight
 * messages finish again, print "done ROUND_TRIPS ELAPSED_SECONDS ROUND_TRIPS_PER_SECOND" and keep the
 * connections open, idle, until stdin ends or brings another line (the script reads the server's
 * memory per connection meanwhile).
 *
 *   loadgen echo|ws|socks5 HOST PORT CONNECTIONS SIZE SECONDS [WARMUP]
 *
 * RATE=N in the environment paces the load to N round trips per second in all (default 0: as fast as
 * the server answers). A connection whose echo came back waits in a queue until the pace allows its
 * next message. Paced, every server is measured at the same throughput, below its limit; unpaced,
 * each runs at its own limit (README.md, "Saturated and paced").
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum state { UPGRADING, IDLE, BUSY };

struct conn {
    int fd;
    enum state state;
    size_t sent;      /* bytes of the current message written so far */
    size_t received;  /* payload bytes of the current echo received so far */
    size_t header;    /* ws: bytes of the current frame header held in hdr */
    size_t left;      /* ws: payload bytes left in the current frame */
    unsigned events;  /* what epoll watches for now, to change it only when needed */
    unsigned char hdr[14];
};

static int ws;
static int socks_target;     /* socks5 mode: the echo server's port behind the proxy, else 0 */
static size_t size, wire_len;
static unsigned char *wire;  /* the message as sent: raw bytes, or one masked frame */
static struct conn *conns;
static int nconns, epfd, busy;
static int sending = 1;      /* cleared when a phase ends: finish in-flight messages, start none */
static unsigned long long round_trips;
static double rate;              /* RATE: round trips per second, 0 for no pacing */
static struct conn **waiting;    /* paced: connections whose next message waits for the pace, FIFO */
static int wait_head, wait_count;
static unsigned long long paced; /* messages the pace has let out in this phase */

static void die(const char *what) { perror(what); exit(1); }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void build_message(void) {
    size_t h = 2;
    if (ws) h += (size > 65535 ? 8 : size > 125 ? 2 : 0) + 4;
    else h = 0;
    wire_len = h + size;
    wire = malloc(wire_len);
    unsigned char *p = wire;
    if (ws) {
        *p++ = 0x82; /* FIN, binary */
        if (size > 65535) {
            *p++ = 0x80 | 127;
            for (int i = 7; i >= 0; i--) *p++ = (unsigned char) (size >> (8 * i));
        } else if (size > 125) {
            *p++ = 0x80 | 126; *p++ = (unsigned char) (size >> 8); *p++ = (unsigned char) size;
        } else {
            *p++ = 0x80 | (unsigned char) size;
        }
        static const unsigned char key[4] = {0x1f, 0x2e, 0x3d, 0x4c};
        memcpy(p, key, 4); p += 4;
        for (size_t i = 0; i < size; i++) p[i] = (unsigned char) ('a' + i % 26) ^ key[i % 4];
    } else {
        for (size_t i = 0; i < size; i++) p[i] = (unsigned char) ('a' + i % 26);
    }
}

static void watch(struct conn *c, unsigned events) {
    if (c->events == events) return;
    c->events = events;
    struct epoll_event ev = {.events = events, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0) die("epoll_ctl");
}

/* Writes what is left of the current message; asks for EPOLLOUT while the socket is full. */
static void flush_message(struct conn *c) {
    while (c->sent < wire_len) {
        ssize_t n = write(c->fd, wire + c->sent, wire_len - c->sent);
        if (n < 0 && errno == EAGAIN) { watch(c, EPOLLIN | EPOLLOUT); return; }
        if (n <= 0) die("write");
        c->sent += (size_t) n;
    }
    watch(c, EPOLLIN);
}

static void send_message(struct conn *c) {
    c->state = BUSY; busy++;
    c->sent = c->received = 0;
    flush_message(c);
}

static void start_message(struct conn *c) {
    if (!sending) { c->state = IDLE; return; }
    if (rate > 0) { /* the pace starts it: release_paced */
        c->state = IDLE;
        waiting[(wait_head + wait_count++) % nconns] = c;
        return;
    }
    send_message(c);
}

/* Counts payload bytes of a stream of unmasked frames; returns the bytes of payload in buf. */
static size_t ws_payload(struct conn *c, const unsigned char *buf, size_t n) {
    size_t payload = 0;
    while (n > 0) {
        if (c->left == 0) { /* in a header */
            c->hdr[c->header++] = *buf++; n--;
            if (c->header < 2) continue;
            unsigned len7 = c->hdr[1] & 0x7f;
            size_t need = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0);
            if (c->hdr[1] & 0x80) { fprintf(stderr, "loadgen: masked frame from the server\n"); exit(1); }
            if (c->header < need) continue;
            unsigned long long len = len7;
            if (len7 == 126) len = (c->hdr[2] << 8) | c->hdr[3];
            if (len7 == 127) { len = 0; for (int i = 2; i < 10; i++) len = (len << 8) | c->hdr[i]; }
            if ((c->hdr[0] & 0x0f) == 8) { fprintf(stderr, "loadgen: the server sent close\n"); exit(1); }
            c->header = 0; c->left = len;
            continue;
        }
        size_t take = n < c->left ? n : c->left;
        payload += take; c->left -= take; buf += take; n -= take;
    }
    return payload;
}

/* Reads until the current echo is complete or the socket is empty. Stopping at a complete echo
 * saves the read that would only return EAGAIN: epoll is level-triggered, it reports what is left. */
static void on_readable(struct conn *c) {
    unsigned char buf[65536];
    for (;;) {
        ssize_t n = read(c->fd, buf, sizeof buf);
        if (n < 0 && errno == EAGAIN) return;
        if (n < 0) die("read");
        if (n == 0) { fprintf(stderr, "loadgen: the server closed a connection\n"); exit(1); }
        if (c->state == UPGRADING) {
            /* The 101 response fits one read; a server that sends a frame right behind it would not
             * be measured right, and none does before it got one. */
            if (n < 12 || memcmp(buf, "HTTP/1.1 101", 12) != 0) {
                fprintf(stderr, "loadgen: upgrade refused: %.*s\n", (int) n, buf); exit(1);
            }
            c->state = IDLE;
            continue;
        }
        c->received += ws ? ws_payload(c, buf, (size_t) n) : (size_t) n;
        if (c->state == BUSY && c->received >= size) {
            if (c->received > size) { fprintf(stderr, "loadgen: more bytes than sent came back\n"); exit(1); }
            busy--; round_trips++;
            start_message(c);
            return;
        }
    }
}

/* Starts as many waiting messages as the pace allows since `start`. */
static void release_paced(double start) {
    unsigned long long allowed = (unsigned long long) ((now() - start) * rate);
    while (sending && wait_count > 0 && paced < allowed) {
        struct conn *c = waiting[wait_head];
        wait_head = (wait_head + 1) % nconns; wait_count--; paced++;
        send_message(c);
    }
}

/* Reads exactly n bytes from a blocking socket. */
static void read_exactly(int fd, unsigned char *buf, size_t n) {
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r <= 0) { fprintf(stderr, "loadgen: the proxy closed during the SOCKS5 handshake\n"); exit(1); }
        got += (size_t) r;
    }
}

/* RFC 1928 on a blocking socket: greeting without authentication, then CONNECT to the target. */
static void socks5_connect(int fd) {
    unsigned char reply[10];
    static const unsigned char greeting[3] = {5, 1, 0};
    if (write(fd, greeting, sizeof greeting) != sizeof greeting) die("write SOCKS5 greeting");
    read_exactly(fd, reply, 2);
    if (reply[0] != 5 || reply[1] != 0) { fprintf(stderr, "loadgen: the proxy refused: %02x %02x\n", reply[0], reply[1]); exit(1); }
    unsigned char request[10] = {5, 1, 0, 1, 127, 0, 0, 1, (unsigned char) (socks_target >> 8), (unsigned char) socks_target};
    if (write(fd, request, sizeof request) != sizeof request) die("write SOCKS5 CONNECT");
    read_exactly(fd, reply, 4);
    if (reply[0] != 5 || reply[1] != 0) { fprintf(stderr, "loadgen: CONNECT refused, reply %02x\n", reply[1]); exit(1); }
    /* The bound address: IPv4 (4 + 2 bytes) or IPv6 (16 + 2); the proxy's own choice. */
    unsigned char bound[18];
    read_exactly(fd, bound, reply[3] == 4 ? 18 : 6);
}

static void open_all(const char *host, int port) {
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((unsigned short) port)};
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) { fprintf(stderr, "loadgen: bad host %s\n", host); exit(2); }
    char upgrade[256];
    int ulen = snprintf(upgrade, sizeof upgrade,
            "GET / HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", host, port);
    for (int i = 0; i < nconns; i++) {
        struct conn *c = &conns[i];
        /* Blocking connect keeps this simple; the listen backlog is the server's business. */
        c->fd = socket(AF_INET, SOCK_STREAM, 0);
        if (c->fd < 0) die("socket");
        if (connect(c->fd, (struct sockaddr *) &addr, sizeof addr) < 0) die("connect");
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (ws && write(c->fd, upgrade, (size_t) ulen) != ulen) die("write upgrade");
        if (socks_target) socks5_connect(c->fd);
        if (fcntl(c->fd, F_SETFL, O_NONBLOCK) < 0) die("fcntl");
        c->state = ws ? UPGRADING : IDLE;
        c->events = EPOLLIN;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0) die("epoll_ctl add");
    }
}

/* Runs the event loop until `until` (then stops starting messages) and every message is back. */
static void run_until(double until) {
    struct epoll_event events[512];
    double start = now();
    sending = 1; wait_head = wait_count = 0; paced = 0;
    for (int i = 0; i < nconns; i++) {
        if (conns[i].state == IDLE) start_message(&conns[i]);
    }
    for (;;) {
        if (sending && now() >= until) sending = 0;
        if (!sending && busy == 0) return;
        if (rate > 0) release_paced(start);
        int n = epoll_wait(epfd, events, 512, wait_count > 0 && sending ? 1 : 100);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("epoll_wait");
        for (int i = 0; i < n; i++) {
            struct conn *c = events[i].data.ptr;
            if (events[i].events & (EPOLLERR | EPOLLHUP)) { fprintf(stderr, "loadgen: connection error\n"); exit(1); }
            if (events[i].events & EPOLLOUT) flush_message(c);
            if (events[i].events & EPOLLIN) on_readable(c);
        }
    }
}

/* Waits until every connection finished its upgrade. */
static void await_upgrades(void) {
    struct epoll_event events[512];
    double deadline = now() + 60;
    for (;;) {
        int upgrading = 0;
        for (int i = 0; i < nconns; i++) upgrading += conns[i].state == UPGRADING;
        if (upgrading == 0) return;
        if (now() > deadline) { fprintf(stderr, "loadgen: %d upgrades unanswered\n", upgrading); exit(1); }
        int n = epoll_wait(epfd, events, 512, 100);
        for (int i = 0; i < n; i++) on_readable(events[i].data.ptr);
    }
}

int main(int argc, char **argv) {
    if (argc < 7 || (strcmp(argv[1], "echo") != 0 && strcmp(argv[1], "ws") != 0 && strcmp(argv[1], "socks5") != 0)) {
        fprintf(stderr, "usage: loadgen echo|ws|socks5 HOST PORT CONNECTIONS SIZE SECONDS [WARMUP]\n");
        return 2;
    }
    ws = strcmp(argv[1], "ws") == 0;
    if (strcmp(argv[1], "socks5") == 0) {
        socks_target = getenv("SOCKS_TARGET") ? atoi(getenv("SOCKS_TARGET")) : 0;
        if (socks_target < 1 || socks_target > 65535) { fprintf(stderr, "loadgen: socks5 needs SOCKS_TARGET=PORT\n"); return 2; }
    }
    nconns = atoi(argv[4]);
    size = (size_t) atol(argv[5]);
    double seconds = atof(argv[6]), warmup = argc > 7 ? atof(argv[7]) : 3;
    if (nconns < 1 || size < 1 || seconds <= 0) { fprintf(stderr, "loadgen: bad arguments\n"); return 2; }
    conns = calloc((size_t) nconns, sizeof *conns);
    rate = getenv("RATE") ? atof(getenv("RATE")) : 0;
    waiting = calloc((size_t) nconns, sizeof *waiting);
    if ((epfd = epoll_create1(0)) < 0) die("epoll_create1");
    build_message();
    open_all(argv[2], atoi(argv[3]));
    if (ws) await_upgrades();
    run_until(now() + warmup);
    printf("paused\n");
    fflush(stdout);
    char line[64];
    if (!fgets(line, sizeof line, stdin)) return 0;
    round_trips = 0;
    double start = now();
    run_until(start + seconds);
    double elapsed = now() - start;
    printf("done %llu %.3f %.0f\n", round_trips, elapsed, round_trips / elapsed);
    fflush(stdout);
    (void) !fgets(line, sizeof line, stdin);
    return 0;
}
