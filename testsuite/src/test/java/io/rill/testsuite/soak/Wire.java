package io.rill.testsuite.soak;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The soak driver's side of the wire: blocking sockets and just enough HTTP/1.1 and RFC 6455
 * framing to check answers byte for byte. Written independently of Rill's codecs on purpose: a
 * bug shared by both ends would pass unseen.
 */
final class Wire implements AutoCloseable {

    /** The examples' certificates are self-signed and made at start-up: nothing to verify against. */
    static final SSLContext TRUST_ALL = trustAll();

    final Socket socket;
    /** The TCP socket under {@link #socket} (the same one without TLS), for half-closes and resets. */
    final Socket tcp;
    final InputStream in;
    final OutputStream out;

    private Wire(Socket socket, Socket tcp) throws IOException {
        this.socket = socket;
        this.tcp = tcp;
        this.in = new BufferedInputStream(socket.getInputStream(), 16384);
        this.out = socket.getOutputStream();
    }

    /** A connection that speaks TLS if the server does, offering {@code alpn} (none if empty). */
    static Wire connect(SoakServer server, String... alpn) throws IOException {
        Wire plain = connectTcp(server);
        if (!server.tls) {
            return plain;
        }
        SSLSocket tls = (SSLSocket) TRUST_ALL.getSocketFactory().createSocket(plain.tcp, "localhost", server.port(), true);
        if (alpn.length > 0) {
            SSLParameters parameters = tls.getSSLParameters();
            parameters.setApplicationProtocols(alpn);
            tls.setSSLParameters(parameters);
        }
        tls.startHandshake();
        return new Wire(tls, plain.tcp);
    }

    /** A TCP connection even to a TLS server, for bytes no TLS client would send. */
    static Wire connectTcp(SoakServer server) throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
        plain.setSoTimeout(30_000);
        plain.setTcpNoDelay(true);
        return new Wire(plain, plain);
    }

    /** Sends FIN on the TCP connection (no close_notify under TLS: the peer sees the stream end). */
    void halfClose() throws IOException {
        tcp.shutdownOutput();
    }

    /** Closes with SO_LINGER 0: the kernel sends RST and drops whatever was not yet sent or read. */
    void reset() {
        try {
            tcp.setSoLinger(true, 0);
            tcp.close(); // first: closing a TLS socket would try to send close_notify
        } catch (IOException ignored) {
            // already gone
        }
        close();
    }

    @Override
    public void close() {
        try {
            socket.close();
            tcp.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }

    void write(String ascii) throws IOException {
        out.write(ascii.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** An HTTP/1.1 answer: its status, body, and whether the server said it will close. */
    record Response(int status, byte[] body, boolean close) {
        String text() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    /** Reads one answer (skipping 1xx); null when the connection ends before its first byte. */
    Response readResponse() throws IOException {
        while (true) {
            String statusLine = readLine(true);
            if (statusLine == null) {
                return null;
            }
            if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
                throw new IOException("not a status line: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            boolean close = false;
            for (String line; !(line = readLine(false)).isEmpty(); ) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring(15).strip());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    close = true;
                }
            }
            if (status / 100 == 1) {
                continue;
            }
            byte[] body = chunked ? readChunked() : in.readNBytes((int) Math.max(0, length));
            if (length > 0 && body.length < length) {
                throw new EOFException("body cut short at " + body.length + " of " + length);
            }
            return new Response(status, body, close);
        }
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(false);
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip(), 16);
            if (size == 0) {
                while (!readLine(false).isEmpty()) {
                    // trailers: none of our answers carry any worth checking
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length < size) {
                throw new EOFException("chunk cut short");
            }
            body.write(chunk);
            readLine(false);
        }
    }

    /** A line without its CRLF; null at end of stream only if {@code eofAllowed} and nothing was read. */
    String readLine(boolean eofAllowed) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b < 0) {
                if (eofAllowed && line.length() == 0) {
                    return null;
                }
                throw new EOFException("connection ended inside a line: " + line);
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    /** Reads until the server closes; true if it did within the socket timeout, counting an RST as a close. */
    boolean drainToEnd() {
        byte[] sink = new byte[16384];
        try {
            while (in.read(sink) >= 0) {
                // discard
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    // --- WebSocket (RFC 6455)

    /** Sends the opening handshake for {@code /} and reads the 101. */
    void webSocketHandshake() throws IOException {
        write("GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
        String statusLine = readLine(false);
        if (!statusLine.startsWith("HTTP/1.1 101")) {
            throw new IOException("handshake refused: " + statusLine);
        }
        while (!readLine(false).isEmpty()) {
            // the accept key was computed by the server's own rules; the 101 is what counts
        }
    }

    /** A client frame: FIN, the opcode, masked with a random key (RFC 6455 §5.3). */
    static byte[] clientFrame(int opcode, byte[] payload) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write(0x80 | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length < 65536) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) payload.length >>> shift));
            }
        }
        byte[] key = new byte[4];
        ThreadLocalRandom.current().nextBytes(key);
        frame.write(key, 0, 4);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ key[i & 3]);
        }
        return frame.toByteArray();
    }

    /** A server frame: its first byte (FIN, RSV, opcode) and its payload; servers never mask. */
    record Frame(int head, byte[] payload) {
        int opcode() {
            return head & 0x0F;
        }

        /** The status of a close frame, or -1. */
        int closeCode() {
            return opcode() == 0x8 && payload.length >= 2 ? (payload[0] & 0xFF) << 8 | payload[1] & 0xFF : -1;
        }
    }

    /** Reads one frame; null at a clean end of stream before its first byte. */
    Frame readFrame() throws IOException {
        int head = in.read();
        if (head < 0) {
            return null;
        }
        int second = readByte();
        if ((second & 0x80) != 0) {
            throw new IOException("masked frame from the server");
        }
        long length = second & 0x7F;
        if (length == 126) {
            length = readByte() << 8 | readByte();
        } else if (length == 127) {
            length = 0;
            for (int i = 0; i < 8; i++) {
                length = length << 8 | readByte();
            }
        }
        if (length > 16 << 20) {
            throw new IOException("server frame of " + length + " bytes");
        }
        byte[] payload = in.readNBytes((int) length);
        if (payload.length < length) {
            throw new EOFException("frame cut short");
        }
        return new Frame(head, payload);
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection ended inside a frame header");
        }
        return b;
    }

    private static SSLContext trustAll() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            TrustManager trustAll = new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            };
            context.init(null, new TrustManager[] {trustAll}, new SecureRandom());
            return context;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
