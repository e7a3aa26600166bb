/* Shared by the C echo servers: a write that goes on until done or until the socket is full. */
#ifndef RILL_LOAD_WRITE_ALL_H
#define RILL_LOAD_WRITE_ALL_H
#include <errno.h>
#include <unistd.h>

/* Writes n bytes of buf; returns how many the socket took (n unless it is full), or -1 on error. */
static long write_some(int fd, const unsigned char *buf, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, buf + done, n - done);
        if (w < 0) return errno == EAGAIN ? (long) done : -1;
        done += (size_t) w;
    }
    return (long) done;
}
#endif
