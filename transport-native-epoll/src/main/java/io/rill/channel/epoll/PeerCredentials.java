package io.rill.channel.epoll;

/**
 * Who is at the other end of a Unix-domain socket ({@code SO_PEERCRED}): the process, user and
 * group ids the kernel recorded when the peer connected (or listened), not forgeable by the peer.
 *
 * @param pid the peer's process id
 * @param uid the peer's effective user id
 * @param gid the peer's effective group id
 */
public record PeerCredentials(int pid, int uid, int gid) {
}
