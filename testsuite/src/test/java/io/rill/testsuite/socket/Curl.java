package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.util.ArrayList;
import java.util.List;

import io.rill.channel.Channel;

/** curl command lines for a test server on any socket transport (TCP, or Unix-domain with --unix-socket). */
final class Curl {

    private Curl() {
    }

    /** {@code curl -sS --max-time 20} with {@code flags}, aimed at {@code address}; skips on transports curl cannot reach. */
    static List<String> base(SocketAddress address, String... flags) {
        List<String> base = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20"));
        base.addAll(List.of(flags));
        if (address instanceof UnixDomainSocketAddress unix) {
            base.addAll(List.of("--unix-socket", unix.getPath().toString()));
        } else {
            assumeTrue(address instanceof InetSocketAddress, "curl needs a socket");
        }
        return base;
    }

    /** The URL of {@code path} on {@code server}; over a Unix-domain socket the host is nominal. */
    static String url(Channel server, String path) {
        SocketAddress a = server.localAddress();
        return a instanceof InetSocketAddress inet ? "http://127.0.0.1:" + inet.getPort() + path : "http://localhost" + path;
    }

    /** {@code base} followed by {@code more}. */
    static List<String> concat(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return all;
    }
}
