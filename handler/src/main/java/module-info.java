/**
 * Ready-made handlers: logging, idle detection and timeouts, flush consolidation, chunked
 * writes of files and streams, traffic shaping, IP filtering, and TLS ({@code io.rill.handler.ssl}).
 */
module io.rill.handler {
    requires transitive io.rill.codec;
    // JFR event io.rill.TlsHandshake.
    requires jdk.jfr;
    // Not needed at run time: lets LoggingHandlerTest (compiled into this module) listen to
    // System.Logger's default backend.
    requires static java.logging;
    // SslProvider.OPENSSL, only when netty-tcnative-boringssl-static is present.
    requires static io.netty.tcnative.classes.openssl;

    exports io.rill.handler.logging;
    exports io.rill.handler.timeout;
    exports io.rill.handler.flush;
    exports io.rill.handler.stream;
    exports io.rill.handler.ipfilter;
    exports io.rill.handler.traffic;
    exports io.rill.handler.ssl;
    exports io.rill.handler.ssl.util;
}
