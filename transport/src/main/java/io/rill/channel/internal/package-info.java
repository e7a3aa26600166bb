/**
 * Transport machinery shared by Rill's own transports (NIO here, epoll in its own module): the
 * read burst of a byte stream, the accept burst of a listening socket, half closure, direct copies
 * of outbound buffers, socket-option access, the shared registration and interest set of a
 * selector-style channel, and the warm-up of a channel's hot objects.
 *
 * <p>Not API. The module exports this package only to Rill's transport modules, it is left out of
 * the published javadoc, and it changes without notice. Applications use the interfaces of
 * {@link io.rill.channel.socket} and the transports' channel classes instead.
 */
package io.rill.channel.internal;
