package io.rill.jpmstest;

import java.util.ArrayList;
import java.util.List;

import io.rill.channel.epoll.Epoll;
import io.rill.handler.ssl.SslProvider;

/**
 * Runs one HTTP round trip per transport (NIO, epoll) and security (plaintext, TLS over the JDK,
 * TLS over OPENSSL), one WebSocket-over-HTTP/2 round trip and one proxied round trip (PROXY header,
 * SOCKS5, the DNS codec) per transport, prints a line for each, and exits 0 only if all of them passed.
 *
 * <p>With {@code --expect-openssl-unavailable REASON-PART} it checks instead that OPENSSL is
 * refused with a cause containing that text, so the test can pin the message a module-path user
 * sees when tcnative's classes are not resolved.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("--expect-openssl-unavailable")) {
            System.exit(checkOpenSslRefused(args[1]));
        }
        List<String> failures = new ArrayList<>();
        for (Transport transport : Transport.values()) {
            for (Security security : Security.values()) {
                String name = transport + "/" + security;
                try {
                    String body = HttpRoundTrip.run(transport, security);
                    System.out.println(name + ": " + body);
                } catch (Throwable t) {
                    failures.add(name);
                    System.out.println(name + ": FAILED " + t);
                    t.printStackTrace(System.out);
                }
            }
            String name = transport + "/H2_WEBSOCKET";
            try {
                System.out.println(name + ": " + WebSocketOverHttp2RoundTrip.run(transport));
            } catch (Throwable t) {
                failures.add(name);
                System.out.println(name + ": FAILED " + t);
                t.printStackTrace(System.out);
            }
            name = transport + "/PROXIED";
            try {
                System.out.println(name + ": " + ProxiedRoundTrip.run(transport));
            } catch (Throwable t) {
                failures.add(name);
                System.out.println(name + ": FAILED " + t);
                t.printStackTrace(System.out);
            }
        }
        System.out.println("module of Epoll: " + Epoll.class.getModule().getName()
                + ", of SslProvider: " + SslProvider.class.getModule().getName());
        if (!failures.isEmpty()) {
            System.out.println("failed: " + failures);
            System.exit(1);
        }
        System.out.println("all round trips passed");
    }

    private static int checkOpenSslRefused(String expected) {
        String cause = SslProvider.OPENSSL.unavailabilityCause();
        System.out.println("OPENSSL unavailable because: " + cause);
        return cause != null && cause.contains(expected) ? 0 : 1;
    }
}
