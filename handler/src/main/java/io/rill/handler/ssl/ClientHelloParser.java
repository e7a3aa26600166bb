package io.rill.handler.ssl;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

import io.rill.buffer.ByteBuf;
import io.rill.handler.codec.CorruptedFrameException;
import io.rill.handler.codec.TooLongFrameException;

/**
 * Reassembles a ClientHello from the handshake records that carry it and extracts its
 * server_name (RFC 6066 §3), without consuming the records: they are replayed to the
 * {@link SslHandler} chosen by name.
 *
 * <pre>
 *   record:    16 | 03 0x | len(2) | fragment ...          (one or many records, any split)
 *   handshake: 01 | len(3)  | ClientHello body             (RFC 8446 §4.1.2)
 *   body:      version(2) random(32) session_id<1> cipher_suites<2> compression<1> extensions<2>
 *   extension: type(2) len(2) data;  server_name = 0: list<2> { type(1) = 0, host_name<2> }
 * </pre>
 *
 * <p>Work is linear in the bytes received: each record is copied once into the reassembly
 * buffer, whose size follows what arrived (never what the header claims), and the parse
 * resumes where it stopped (T-05). A declared length above the cap fails at once (T-03); any
 * malformation fails: there is no "could not tell" answer that would fall back to a default
 * context (T-06).
 *
 * <p>Case IDs such as T-07 in this file are those of docs/security-cases.md.
 */
final class ClientHelloParser {

    private static final int HANDSHAKE_HEADER = 4;
    private static final int CLIENT_HELLO = 1;
    private static final int SERVER_NAME = 0;
    private static final int HOST_NAME = 0;

    private final int maxHelloLength;
    /** Bytes after the cumulation's reader index already taken into {@link #hello}. */
    private int scanned;
    /** The handshake message so far: its header then body. */
    private byte[] hello = new byte[256];
    private int helloLength;
    /** The declared body length, once the handshake header is complete; -1 before. */
    private int declared = -1;

    ClientHelloParser(int maxHelloLength) {
        this.maxHelloLength = maxHelloLength;
    }

    /**
     * Takes in the whole records readable in {@code in}; returns true once the ClientHello is
     * complete (then {@link #serverName()} answers). {@code in}'s indexes are not moved.
     */
    boolean offer(ByteBuf in) throws NotSslRecordException {
        for (;;) {
            int offset = in.readerIndex() + scanned;
            if (in.writerIndex() - offset < SslRecords.HEADER_LENGTH) {
                return false;
            }
            int type = in.getUnsignedByte(offset);
            int length = in.getUnsignedShort(offset + 3);
            if (type != SslRecords.HANDSHAKE || in.getUnsignedByte(offset + 1) != 3
                    || length == 0 || length > SslRecords.MAX_PLAINTEXT_LENGTH) {
                throw new NotSslRecordException("expected a handshake record carrying a ClientHello, found "
                        + SslRecords.quote(in, offset));
            }
            if (in.writerIndex() - offset < SslRecords.HEADER_LENGTH + length) {
                return false;
            }
            append(in, offset + SslRecords.HEADER_LENGTH, length);
            scanned += SslRecords.HEADER_LENGTH + length;
            if (declared >= 0 && helloLength >= HANDSHAKE_HEADER + declared) {
                return true;
            }
        }
    }

    private void append(ByteBuf in, int from, int length) {
        int take = length;
        if (declared >= 0) {
            take = Math.min(length, HANDSHAKE_HEADER + declared - helloLength); // bytes after the hello are not ours
        }
        if (helloLength + take > hello.length) {
            hello = Arrays.copyOf(hello, Math.max(helloLength + take, hello.length * 2));
        }
        in.getBytes(from, hello, helloLength, take);
        helloLength += take;
        if (declared < 0 && helloLength >= HANDSHAKE_HEADER) {
            if (hello[0] != CLIENT_HELLO) {
                throw new CorruptedFrameException("expected a ClientHello (handshake type 1), found type "
                        + (hello[0] & 0xFF));
            }
            declared = ((hello[1] & 0xFF) << 16) | ((hello[2] & 0xFF) << 8) | (hello[3] & 0xFF);
            if (declared > maxHelloLength) {
                throw new TooLongFrameException("ClientHello of " + declared + " bytes exceeds the limit of "
                        + maxHelloLength);
            }
            helloLength = Math.min(helloLength, HANDSHAKE_HEADER + declared);
        }
    }

    /** The host name the client asked for (lower case), or null if it sent no server_name. */
    String serverName() {
        Cursor c = new Cursor(hello, HANDSHAKE_HEADER, HANDSHAKE_HEADER + declared);
        c.skip(2 + 32, "version and random");
        c.skip(c.u8(), "session_id");
        c.skip(c.u16(), "cipher_suites");
        c.skip(c.u8(), "compression_methods");
        if (!c.hasMore()) {
            return null; // a TLS 1.2 hello may have no extensions at all
        }
        Cursor extensions = c.sub(c.u16(), "extensions");
        while (extensions.hasMore()) {
            int type = extensions.u16();
            Cursor data = extensions.sub(extensions.u16(), "extension " + type);
            if (type == SERVER_NAME) {
                return hostName(data);
            }
        }
        return null;
    }

    private static String hostName(Cursor data) {
        Cursor list = data.sub(data.u16(), "server_name_list");
        while (list.hasMore()) {
            int nameType = list.u8();
            Cursor name = list.sub(list.u16(), "server name");
            if (nameType == HOST_NAME) {
                return checkedHostName(name.rest());
            }
        }
        throw new CorruptedFrameException("server_name extension without a host_name");
    }

    /** RFC 6066 §3: an ASCII DNS name without a trailing dot; anything else is refused, not guessed at. */
    private static String checkedHostName(byte[] bytes) {
        if (bytes.length == 0 || bytes.length > 253) {
            throw new CorruptedFrameException("server_name of " + bytes.length + " bytes");
        }
        for (byte b : bytes) {
            boolean ok = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                    || b == '-' || b == '.' || b == '_';
            if (!ok) {
                throw new CorruptedFrameException("server_name with byte 0x" + Integer.toHexString(b & 0xFF));
            }
        }
        return new String(bytes, StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
    }

    /** Bounded reads over [position, end) of the hello; running past the end is a malformed hello. */
    private static final class Cursor {
        private final byte[] data;
        private int position;
        private final int end;

        Cursor(byte[] data, int position, int end) {
            this.data = data;
            this.position = position;
            this.end = end;
        }

        boolean hasMore() {
            return position < end;
        }

        int u8() {
            need(1, "a length");
            return data[position++] & 0xFF;
        }

        int u16() {
            need(2, "a length");
            int v = ((data[position] & 0xFF) << 8) | (data[position + 1] & 0xFF);
            position += 2;
            return v;
        }

        void skip(int n, String what) {
            need(n, what);
            position += n;
        }

        Cursor sub(int n, String what) {
            need(n, what);
            Cursor c = new Cursor(data, position, position + n);
            position += n;
            return c;
        }

        byte[] rest() {
            byte[] out = Arrays.copyOfRange(data, position, end);
            position = end;
            return out;
        }

        private void need(int n, String what) {
            if (n > end - position) {
                throw new CorruptedFrameException("malformed ClientHello: " + what + " needs " + n
                        + " bytes, " + (end - position) + " left");
            }
        }
    }
}
