package io.rill.example;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A minimal HTTP CONNECT proxy for the interop tests, on blocking JDK sockets so it shares no code
 * with Rill: reads a request head, optionally requires {@code Proxy-Authorization}, answers 200 and
 * copies bytes both ways, or 407 / 502. Not a production proxy: one thread per direction.
 */
final class ConnectRelay implements AutoCloseable {

    private final ServerSocket server;
    private final String requiredAuthorization;

    ConnectRelay(String requiredAuthorization) throws IOException {
        this.server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        this.requiredAuthorization = requiredAuthorization;
        TestThreads.run("connect-relay-accept", () -> {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    TestThreads.run("connect-relay", () -> serve(client));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    int port() {
        return server.getLocalPort();
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0 || head.size() > 8192) {
                    return;
                }
                head.write(b);
            }
            String text = head.toString(StandardCharsets.ISO_8859_1);
            String[] requestLine = text.substring(0, text.indexOf("\r\n")).split(" ");
            if (requiredAuthorization != null
                    && !text.toLowerCase(Locale.ROOT).contains("proxy-authorization: " + requiredAuthorization.toLowerCase(Locale.ROOT) + "\r\n")) {
                out.write("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                return;
            }
            String target = requestLine[1];
            int colon = target.lastIndexOf(':');
            Socket upstream = new Socket();
            try {
                upstream.connect(new InetSocketAddress(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1))),
                        5000);
            } catch (IOException e) {
                out.write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                return;
            }
            try (upstream) {
                out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                var back = TestThreads.run("connect-relay-back", () -> {
                    try {
                        upstream.getInputStream().transferTo(out);
                        client.shutdownOutput();
                    } catch (IOException ignored) {
                        // one side closed
                    }
                });
                in.transferTo(upstream.getOutputStream());
                upstream.shutdownOutput();
                back.get(30, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (Exception ignored) {
            // a client that went away
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
