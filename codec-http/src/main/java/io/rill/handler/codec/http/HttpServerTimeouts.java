package io.rill.handler.codec.http;

import java.time.Duration;

/**
 * The time limits {@link HttpServerCodec} puts on a client, in the manner of Apache's
 * {@code mod_reqtimeout}. Each is null when off.
 * <ul>
 *   <li>{@code idle}: from the connection's start, and from the end of the last response it was
 *       waiting for, until the first byte of its next request. On expiry the connection closes
 *       without a word (an idle keep-alive connection).</li>
 *   <li>{@code header}: from a request's first byte until its head is complete. On expiry the
 *       client gets {@code 408 Request Timeout} and the connection closes: a head sent a byte at a
 *       time (Slowloris) holds a connection no longer than this.</li>
 *   <li>{@code body}: from a request head until its body is complete, extended by one second for
 *       each {@code minBodyRate} bytes received, but never past {@code body} from the last
 *       bytes; so a body must keep coming at {@code minBodyRate} bytes a second on average and
 *       never stall for {@code body}. On expiry, {@code 408} and the close.</li>
 * </ul>
 * None runs while the server itself has stopped reading (too many requests waiting for their
 * answers, or answers the client does not read): then the delay is not the client's sending.
 * A response that is slow to drain is no business of these; pair the codec with an
 * {@code IdleStateHandler} that observes output for that.
 *
 * @param idle        null or positive
 * @param header      null or positive
 * @param body        null or positive
 * @param minBodyRate bytes a second that extend the body timeout by a second; ≥ 1 (ignored without {@code body})
 */
public record HttpServerTimeouts(Duration idle, Duration header, Duration body, int minBodyRate) {

    /**
     * On by default: idle 60 s, header 20 s, body 20 s at 500 bytes/s (a modem's pace; any real
     * client sends faster, a client trickling bytes to hold the connection does not).
     */
    public static final HttpServerTimeouts DEFAULT =
            new HttpServerTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(20), Duration.ofSeconds(20), 500);

    /** No timeouts at all: for servers that time their clients some other way. */
    public static final HttpServerTimeouts NONE = new HttpServerTimeouts(null, null, null, 1);

    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException if a timeout is zero or negative, or {@code minBodyRate} is below 1
     * @param idle        the idle timeout, positive; or null
     * @param header      the header timeout, positive; or null
     * @param body        the body timeout, positive; or null
     * @param minBodyRate bytes a second that extend the body timeout by a second; at least 1
     */
    public HttpServerTimeouts {
        check("idle", idle);
        check("header", header);
        check("body", body);
        if (minBodyRate < 1) {
            throw new IllegalArgumentException("minBodyRate must be at least 1 byte a second: " + minBodyRate);
        }
    }

    /**
     * These limits with the idle timeout {@code idle} (null for none).
     *
     * @param idle the idle timeout, positive; or null
     * @return a new set of limits
     */
    public HttpServerTimeouts withIdle(Duration idle) {
        return new HttpServerTimeouts(idle, header, body, minBodyRate);
    }

    /**
     * These limits with the header timeout {@code header} (null for none).
     *
     * @param header the header timeout, positive; or null
     * @return a new set of limits
     */
    public HttpServerTimeouts withHeader(Duration header) {
        return new HttpServerTimeouts(idle, header, body, minBodyRate);
    }

    /**
     * These limits with the body timeout {@code body} (null for none) and its minimum rate.
     *
     * @param body        the body timeout, positive; or null
     * @param minBodyRate bytes a second that extend the body timeout by a second; at least 1
     * @return a new set of limits
     */
    public HttpServerTimeouts withBody(Duration body, int minBodyRate) {
        return new HttpServerTimeouts(idle, header, body, minBodyRate);
    }

    private static void check(String name, Duration d) {
        if (d != null && (d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException(name + " timeout must be positive: " + d);
        }
    }
}
