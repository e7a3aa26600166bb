package io.rill.testsuite.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A handful of attacks from docs/security-cases.md per protocol, with the bytes of the socket
 * suite's and codec tests' inputs, sent between the load. Each must be answered as the case says
 * (the status, close code or GOAWAY code); an answer to the request hidden behind an HTTP attack
 * is a failure, as is any other answer.
 */
final class Attacks {

    /** One attack: its case, the bytes after the connection (or handshake) is set up, and what may come back. */
    private record Attack(String id, byte[] bytes, Set<String> allowed) {
        static Attack of(String id, String ascii, String... allowed) {
            return new Attack(id, ascii.getBytes(StandardCharsets.ISO_8859_1), Set.of(allowed));
        }
    }

    private static final String POST = "POST / HTTP/1.1\r\nHost: a\r\n";
    private static final String CHUNKED = POST + "Transfer-Encoding: chunked\r\n\r\n";
    /** Sent after every HTTP attack: answering it would mean the attack split the stream. */
    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n";

    private static final List<Attack> HTTP = List.of(
            Attack.of("H1-01", "GET /some/path HTTP/1.1\r\nTransfer-Encoding : chunked\r\nHost: a\r\n\r\n", "400"),
            Attack.of("H1-03", POST + "Content-Length: 1\r\nContent-Length: 0\r\n\r\nb", "400"),
            Attack.of("H1-08", CHUNKED + "5\nhello\r\n0\r\n\r\n", "400"),
            Attack.of("H1-12", CHUNKED + "100000004\r\ntest\r\n0\r\n\r\n", "400"),
            Attack.of("S-01", POST + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nX", "400"),
            Attack.of("S-04", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n", "400"),
            Attack.of("L-01", "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: a\r\n\r\n", "414"),
            Attack.of("L-02", "GET / HTTP/1.1\r\nHost: a\r\n" + ("X-a: " + "b".repeat(100) + "\r\n").repeat(200) + "\r\n", "431"),
            Attack.of("L-05", POST + "Content-Length: 10000000000\r\n\r\n", "413"));

    /** Sent on a TCP connection to a TLS port: neither may get past the record layer. */
    private static final List<Attack> TLS = List.of(
            Attack.of("TL-03", "GET / HTTP/1.1\r\nHost: a\r\n\r\n", "closed"),
            new Attack("TL-04", new byte[] {0x17, 0x03, 0x03, (byte) 0xFF, (byte) 0xFF, 0, 0, 0}, Set.of("closed")));

    private static final List<Attack> WEBSOCKET = List.of(
            new Attack("WS-01", new byte[] {(byte) 0x81, 0x02, 'h', 'i'}, Set.of("close 1002")),
            new Attack("WS-02", new byte[] {(byte) 0x82, (byte) 0xFF, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4}, Set.of("close 1009")),
            new Attack("WS-04", Wire.clientFrame(0x9, new byte[126]), Set.of("close 1002")),
            new Attack("WS-06", Wire.clientFrame(0x3, new byte[] {'x'}), Set.of("close 1002")),
            new Attack("WS-08", Wire.clientFrame(0x1, new byte[] {'o', 'k', (byte) 0xFF}), Set.of("close 1007")),
            new Attack("WS-10", Wire.clientFrame(0x2, new byte[70_000]), Set.of("close 1009")));

    private static final List<Attack> HTTP2 = List.of(
            new Attack("H2-04", rapidReset(300), Set.of("GOAWAY 11")),
            new Attack("H2-06", continuationFlood(2000), Set.of("GOAWAY 11")),
            new Attack("H2-14", withPreface(H2Frames.get(2)), Set.of("GOAWAY 1")),
            new Attack("H2-15", withPreface(H2Frames.frame(H2Frames.HEADERS, H2Frames.END_HEADERS, 1, new byte[20_000])), Set.of("GOAWAY 6")),
            // On the h2c port a first line that is not HTTP/1.x nor the preface: refused either way.
            Attack.of("H2-16", "PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n", "GOAWAY 1", "closed"));

    private final Ledger ledger;

    Attacks(Ledger ledger) {
        this.ledger = ledger;
    }

    /** Sends one attack chosen at random among the server's protocol's and checks the answer. */
    void send(SoakServer server) throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        switch (server.protocol) {
            case HTTP -> {
                if (server.tls && random.nextInt(4) == 0) {
                    Attack attack = TLS.get(random.nextInt(TLS.size()));
                    try (Wire wire = Wire.connectTcp(server)) {
                        wire.out.write(attack.bytes());
                        record(server, attack, wire.drainToEnd() ? "closed" : "still open after 30 s");
                    }
                } else {
                    http(server, HTTP.get(random.nextInt(HTTP.size())));
                }
            }
            case WEBSOCKET -> {
                Attack attack = WEBSOCKET.get(random.nextInt(WEBSOCKET.size()));
                try (Wire wire = Wire.connect(server)) {
                    wire.webSocketHandshake();
                    writeIgnoringReset(wire, attack.bytes());
                    record(server, attack, Faults.webSocketEnding(wire));
                }
            }
            case HTTP2 -> {
                Attack attack = HTTP2.get(random.nextInt(HTTP2.size()));
                try (Wire wire = Wire.connect(server, "h2")) {
                    writeIgnoringReset(wire, attack.bytes());
                    record(server, attack, H2Frames.ending(wire));
                }
            }
            case ECHO -> {
                // Every byte is valid to an echo server: its attacks are the connection-level faults.
            }
        }
    }

    private void http(SoakServer server, Attack attack) throws IOException {
        try (Wire wire = Wire.connect(server)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.writeBytes(attack.bytes());
            bytes.writeBytes(SMUGGLED.getBytes(StandardCharsets.US_ASCII));
            writeIgnoringReset(wire, bytes.toByteArray());
            Wire.Response answer = wire.readResponse();
            if (answer == null) {
                record(server, attack, "closed without an answer");
                return;
            }
            Wire.Response second;
            try {
                second = wire.readResponse();
            } catch (IOException e) {
                second = null;
            }
            if (second != null) {
                ledger.failure(server.label + ": " + attack.id() + " let the request behind it through: " + second.status());
            }
            record(server, attack, Integer.toString(answer.status()));
        }
    }

    private void record(SoakServer server, Attack attack, String outcome) {
        ledger.fault("attack " + attack.id());
        if (attack.allowed().contains(outcome)) {
            ledger.expected(attack.id() + " -> " + outcome);
        } else {
            ledger.failure(server.label + ": " + attack.id() + " answered with " + outcome + ", expected " + attack.allowed());
        }
    }

    /** The server may close before it has read all of an oversized attack; what it answered still counts. */
    private static void writeIgnoringReset(Wire wire, byte[] bytes) {
        try {
            wire.out.write(bytes);
            wire.out.flush();
        } catch (IOException ignored) {
            // the answer, or the close, is read next
        }
    }

    private static byte[] withPreface(byte[] frames) {
        ByteArrayOutputStream out = H2Frames.preface();
        out.writeBytes(frames);
        return out.toByteArray();
    }

    /** H2-04: a GET and its RST_STREAM CANCEL, {@code streams} times. */
    private static byte[] rapidReset(int streams) {
        ByteArrayOutputStream out = H2Frames.preface();
        for (int i = 0, stream = 1; i < streams; i++, stream += 2) {
            out.writeBytes(H2Frames.get(stream));
            out.writeBytes(H2Frames.frame(H2Frames.RST_STREAM, 0, stream, new byte[] {0, 0, 0, 0x8}));
        }
        return out.toByteArray();
    }

    /** H2-06: a HEADERS without END_HEADERS, then empty CONTINUATION frames that never end it. */
    private static byte[] continuationFlood(int frames) {
        ByteArrayOutputStream out = H2Frames.preface();
        out.writeBytes(H2Frames.frame(H2Frames.HEADERS, H2Frames.END_STREAM, 1, H2Frames.GET_ROOT));
        for (int i = 0; i < frames; i++) {
            out.writeBytes(H2Frames.frame(H2Frames.CONTINUATION, 0, 1, new byte[0]));
        }
        return out.toByteArray();
    }
}
