package io.rill.handler.codec.http2;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/**
 * A blocking client on a plain socket that writes HTTP/1.1 text and HTTP/2 frames (fields as
 * {@link TextFieldCodec} text) and reads what the server sends back, for loopback tests. Reads
 * time out after 10 s, so a test that waits for something that never comes fails instead of hanging.
 */
final class RawH2cClient implements AutoCloseable {

    final Http2FrameWriter writer = new Http2FrameWriter(new TextFieldCodec());
    private final FrameRecorder frames = new FrameRecorder(false);
    private final Socket socket;
    private final InputStream in;
    /** Bytes read after the HTTP/1 head, handed to the frame parser. */
    private byte[] afterHead = new byte[0];

    RawH2cClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
    }

    interface Frames {
        void write(ByteBuf out) throws Exception;
    }

    void send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    void send(Frames frames) throws Exception {
        ByteBuf out = Unpooled.buffer();
        try {
            frames.write(out);
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            socket.getOutputStream().write(bytes);
        } finally {
            out.release();
        }
    }

    /** Reads an HTTP/1 response head (up to the empty line); what follows is kept for {@link #readFramesUntil}. */
    String readHttp1Head() throws IOException {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        while (true) {
            int n = in.read(chunk);
            if (n < 0) {
                throw new IOException("closed after " + seen);
            }
            seen.write(chunk, 0, n);
            String text = seen.toString(StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end >= 0) {
                byte[] all = seen.toByteArray();
                afterHead = java.util.Arrays.copyOfRange(all, end + 4, all.length);
                return text.substring(0, end + 4);
            }
        }
    }

    /** Reads until the server closes, as text: for an HTTP/1.1 exchange ending in {@code Connection: close}. */
    String readUntilClose() throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }

    /** Reads frames until one matches {@code last}; returns all read (described as FrameRecorder does). */
    List<String> readFramesUntil(Predicate<String> last) throws Exception {
        return readFramesUntilAll(read -> read.stream().anyMatch(last));
    }

    /** Reads frames until for each prefix, a frame read by this call starts with it. */
    List<String> readFramesUntilSeen(String... prefixes) throws Exception {
        return readFramesUntilAll(read -> java.util.Arrays.stream(prefixes)
                .allMatch(p -> read.stream().anyMatch(f -> f.startsWith(p))));
    }

    private List<String> readFramesUntilAll(Predicate<List<String>> done) throws Exception {
        List<String> read = new ArrayList<>(frames.feed(Unpooled.wrappedBuffer(afterHead)));
        afterHead = new byte[0];
        byte[] chunk = new byte[16_384];
        while (!done.test(read)) {
            int n;
            try {
                n = in.read(chunk);
            } catch (java.net.SocketTimeoutException e) {
                throw new IOException("nothing more within 10 s after " + read, e);
            }
            if (n < 0) {
                throw new IOException("closed after " + read);
            }
            read.addAll(frames.feed(Unpooled.copiedBuffer(chunk, 0, n)));
        }
        return read;
    }

    @Override
    public void close() throws IOException {
        frames.release();
        socket.close();
    }
}
