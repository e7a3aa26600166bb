package io.rill.example;

import java.time.Duration;
import java.util.List;

import io.rill.handler.codec.http.HttpServerTimeouts;

/**
 * The time limits every HTTP example puts on its clients, as options: what
 * {@link HttpServerTimeouts} enforces inside the HTTP codec.
 */
final class HttpTimeoutOptions {

    static final ExampleOption HEADER_TIMEOUT = ExampleOption.number("header-timeout", "SECONDS", 20, 1, 86_400,
            "a request head must be complete this long after its first byte, or the client gets 408 and the close");
    static final ExampleOption BODY_TIMEOUT = ExampleOption.number("body-timeout", "SECONDS", 20, 1, 86_400,
            "a request body may stall this long, and must average 500 bytes/s, or the client gets 408 and the close");
    static final ExampleOption IDLE_TIMEOUT = ExampleOption.number("idle-timeout", "SECONDS", 60, 1, 86_400,
            "a connection is closed after this long without a request or any progress of its answers");

    /** The three, for an example's {@code options()}. */
    static final List<ExampleOption> ALL = List.of(HEADER_TIMEOUT, BODY_TIMEOUT, IDLE_TIMEOUT);

    /** What every HTTP example's {@code limits()} says, with {@code body}, its own limit on request bodies. */
    static List<String> limits(String body) {
        return List.of("request head: the HTTP decoder's bounds (request line 4 KiB, headers 8 KiB; 414/431 beyond)",
                body,
                "at most 128 pipelined requests wait for their answers; beyond, reading stops",
                "slow clients: request head within --header-timeout, body at 500 B/s without a stall of"
                        + " --body-timeout (408 beyond), idle connections closed after --idle-timeout",
                ServerRunner.READING_LIMIT);
    }

    private HttpTimeoutOptions() {
    }

    /** The limits the command line asked for. */
    static HttpServerTimeouts from(ExampleOptions options) {
        return new HttpServerTimeouts(Duration.ofSeconds(options.intValue(IDLE_TIMEOUT)),
                Duration.ofSeconds(options.intValue(HEADER_TIMEOUT)),
                Duration.ofSeconds(options.intValue(BODY_TIMEOUT)), HttpServerTimeouts.DEFAULT.minBodyRate());
    }
}
