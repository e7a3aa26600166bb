package io.rill.handler.codec.http.walkthrough;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.channel.Channel;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;

/**
 * The "first server" walkthrough in codec-http's module comment is {@link HelloServer}, word for
 * word: the server answers over a real socket, and the snippet cannot drift from the code.
 */
class FirstServerWalkthroughTest {

    /** Surefire runs in the module's directory. */
    private static final Path MODULE_INFO = Path.of("src/main/java/module-info.java");
    private static final Path HELLO_SERVER =
            Path.of("src/test/java/io/rill/handler/codec/http/walkthrough/HelloServer.java");

    @Test
    void moduleCommentShowsHelloServerWordForWord() throws IOException {
        String source = Files.readString(HELLO_SERVER);
        // The snippet is the file without its package line and the blank line after it.
        String expected = source.substring(source.indexOf("\n\n") + 2);
        assertEquals(expected, snippetIn(Files.readAllLines(MODULE_INFO)));
    }

    /** The lines between {@code <pre>{@code} and its closing {@code }</pre>}, without the comment's {@code " * "}. */
    private static String snippetIn(List<String> lines) {
        int start = lines.indexOf(" * <pre>{@code") + 1;
        int end = lines.indexOf(" * }</pre>");
        assertTrue(start > 0 && end > start, "module-info.java has no <pre>{@code ... }</pre> block");
        StringBuilder snippet = new StringBuilder();
        for (String line : lines.subList(start, end)) {
            snippet.append(line.equals(" *") ? "" : line.substring(" * ".length())).append('\n');
        }
        return snippet.toString();
    }

    @Test
    void helloServerAnswersOverARealSocket() throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel server = HelloServer.start(group, 0);
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            String response;
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                String request = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
                out.write(request.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                // The keep-alive handler closes after this response, so the whole of it arrives before EOF.
                InputStream in = socket.getInputStream();
                response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
            String head = response.substring(0, response.indexOf("\r\n\r\n")).toLowerCase(Locale.ROOT);
            assertTrue(head.contains("\r\ncontent-length: 14"), response);
            assertTrue(head.contains("\r\ncontent-type: text/plain; charset=utf-8"), response);
            assertTrue(response.endsWith("\r\n\r\nHello, World!\n"), response);
            server.close().sync();
        } finally {
            assertTrue(group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }
}
