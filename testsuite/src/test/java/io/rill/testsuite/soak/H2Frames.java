package io.rill.testsuite.soak;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/2 frames written and read by hand (RFC 9113 §4.1), for the faults and attacks the JDK's
 * client would never send. Header blocks use only static-table indexes and literals without
 * Huffman coding, so no HPACK state is needed; the server's header blocks are skipped unread.
 */
final class H2Frames {

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int CONTINUATION = 0x9;
    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;

    /** :method GET, :scheme http, :path /, :authority localhost (RFC 7541 Appendix A indexes 2, 6, 4, 1). */
    static final byte[] GET_ROOT = {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 9, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't'};

    private H2Frames() {
    }

    static byte[] frame(int type, int flags, int stream, byte[] payload) {
        byte[] frame = new byte[9 + payload.length];
        frame[0] = (byte) (payload.length >>> 16);
        frame[1] = (byte) (payload.length >>> 8);
        frame[2] = (byte) payload.length;
        frame[3] = (byte) type;
        frame[4] = (byte) flags;
        frame[5] = (byte) (stream >>> 24 & 0x7F);
        frame[6] = (byte) (stream >>> 16);
        frame[7] = (byte) (stream >>> 8);
        frame[8] = (byte) stream;
        System.arraycopy(payload, 0, frame, 9, payload.length);
        return frame;
    }

    /** The client preface and an empty SETTINGS. */
    static ByteArrayOutputStream preface() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(frame(SETTINGS, 0, 0, new byte[0]));
        return out;
    }

    /**
     * :method POST (index 3), :scheme http or https (6, 7), :path /echo (a literal with the name
     * of index 4, never indexed), :authority localhost.
     */
    static byte[] postEcho(boolean tls) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x83);
        block.write(tls ? 0x87 : 0x86);
        block.writeBytes(new byte[] {0x04, 5, '/', 'e', 'c', 'h', 'o'});
        block.writeBytes(new byte[] {0x01, 9, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't'});
        return block.toByteArray();
    }

    /** A GET of {@code /} that ends its stream. */
    static byte[] get(int stream) {
        return frame(HEADERS, END_HEADERS | END_STREAM, stream, GET_ROOT);
    }

    record Frame(int type, int flags, int stream, byte[] payload) {
        /** A GOAWAY's error code (RFC 9113 §6.8). */
        long errorCode() {
            return (payload[4] & 0xFFL) << 24 | (payload[5] & 0xFF) << 16 | (payload[6] & 0xFF) << 8 | payload[7] & 0xFF;
        }
    }

    /** Reads one frame, acknowledging the server's SETTINGS; null at the end of the stream. */
    static Frame read(Wire wire) throws IOException {
        byte[] head = wire.in.readNBytes(9);
        if (head.length == 0) {
            return null;
        }
        if (head.length < 9) {
            throw new EOFException("frame header cut short");
        }
        int length = (head[0] & 0xFF) << 16 | (head[1] & 0xFF) << 8 | head[2] & 0xFF;
        int stream = (head[5] & 0x7F) << 24 | (head[6] & 0xFF) << 16 | (head[7] & 0xFF) << 8 | head[8] & 0xFF;
        byte[] payload = wire.in.readNBytes(length);
        if (payload.length < length) {
            throw new EOFException("frame cut short");
        }
        Frame frame = new Frame(head[3] & 0xFF, head[4] & 0xFF, stream, payload);
        if (frame.type() == SETTINGS && (frame.flags() & ACK) == 0) {
            try {
                wire.out.write(frame(SETTINGS, ACK, 0, new byte[0]));
            } catch (IOException closed) {
                // A server that is already closing (after an attack) still left its GOAWAY to be read.
            }
        }
        return frame;
    }

    /**
     * How the server ended the connection: {@code "GOAWAY <code>"} for the first GOAWAY that is not
     * NO_ERROR, else {@code "closed"}; reads until the end of the stream.
     */
    static String ending(Wire wire) {
        try {
            for (Frame frame; (frame = read(wire)) != null; ) {
                if (frame.type() == GOAWAY && frame.errorCode() != 0) {
                    return "GOAWAY " + frame.errorCode();
                }
            }
            return "closed";
        } catch (java.net.SocketTimeoutException e) {
            return "still open after 30 s";
        } catch (IOException e) {
            return "closed";
        }
    }

    /** A stream's whole answer: the DATA it carried up to END_STREAM (header blocks are skipped). */
    record Answer(int stream, byte[] body) {
    }

    /**
     * The client's side of one connection's flow control and answers: answers PINGs, gives back
     * the connection window as DATA arrives, and counts the server's WINDOW_UPDATEs against what
     * the client sent (RFC 9113 §6.9). Any RST_STREAM or GOAWAY is an error here.
     */
    static final class Conversation {
        private final Wire wire;
        private final java.util.Map<Integer, ByteArrayOutputStream> bodies = new java.util.HashMap<>();
        private final java.util.ArrayDeque<Answer> done = new java.util.ArrayDeque<>();
        /** What the server lets the client send on the connection (stream windows are never the bound here). */
        private long sendWindow = 65_535;

        Conversation(Wire wire) {
            this.wire = wire;
        }

        void spent(int bytes) {
            sendWindow -= bytes;
        }

        /** Reads until the connection window holds {@code bytes}. */
        void awaitSendWindow(int bytes) throws IOException {
            while (sendWindow < bytes) {
                handle(next());
            }
        }

        Answer nextAnswer() throws IOException {
            while (done.isEmpty()) {
                handle(next());
            }
            return done.poll();
        }

        private Frame next() throws IOException {
            Frame frame = read(wire);
            if (frame == null) {
                throw new EOFException("the server closed with streams open");
            }
            return frame;
        }

        private void handle(Frame frame) throws IOException {
            switch (frame.type()) {
                case DATA -> {
                    bodies.computeIfAbsent(frame.stream(), s -> new ByteArrayOutputStream()).writeBytes(frame.payload());
                    if (frame.payload().length > 0) {
                        wire.out.write(frame(WINDOW_UPDATE, 0, 0, int32(frame.payload().length)));
                    }
                }
                case HEADERS, CONTINUATION -> bodies.computeIfAbsent(frame.stream(), s -> new ByteArrayOutputStream());
                case PING -> {
                    if ((frame.flags() & ACK) == 0) {
                        wire.out.write(frame(PING, ACK, 0, frame.payload()));
                    }
                }
                case WINDOW_UPDATE -> {
                    if (frame.stream() == 0) {
                        sendWindow += ((frame.payload()[0] & 0x7FL) << 24) | (frame.payload()[1] & 0xFF) << 16
                                | (frame.payload()[2] & 0xFF) << 8 | frame.payload()[3] & 0xFF;
                    }
                }
                case RST_STREAM, GOAWAY -> throw new IOException("the server sent frame type " + frame.type()
                        + " on stream " + frame.stream() + ": " + java.util.HexFormat.of().formatHex(frame.payload()));
                default -> {
                    // SETTINGS (acknowledged by read), PRIORITY and the like: nothing to do
                }
            }
            if ((frame.type() == DATA || frame.type() == HEADERS) && (frame.flags() & END_STREAM) != 0) {
                done.add(new Answer(frame.stream(), bodies.remove(frame.stream()).toByteArray()));
            }
        }

        private static byte[] int32(int value) {
            return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
        }
    }
}
