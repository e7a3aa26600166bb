package io.rill.testsuite.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The fault injector's connection-level faults: resets while the server writes, half-closes in the
 * middle of a request, readers that stall with large answers pending, and bursts of connections
 * opened and abandoned. Where a fault leaves the server something it promised (an answer to a
 * complete request, bytes it already echoed), the answer is checked through the {@link Ledger}
 * like any other; where it does not, how the server ended the connection is counted per kind.
 */
final class Faults {

    static final String RESET = "reset mid-write";
    static final String HALF_CLOSE = "half-close mid-request";
    static final String STALL = "stalled reader";
    static final String ABANDON = "abandoned connection";

    private final Ledger ledger;
    private final CountDownLatch stop;
    private final ExecutorService writers;

    Faults(Ledger ledger, CountDownLatch stop, ExecutorService writers) {
        this.ledger = ledger;
        this.stop = stop;
        this.writers = writers;
    }

    /** Asks for a large answer, reads a little of it, and resets the connection (SO_LINGER 0). */
    void resetMidWrite(SoakServer server) throws Exception {
        ledger.fault(RESET);
        Wire wire = server.protocol == SoakServer.Protocol.HTTP2 ? Wire.connect(server, "h2") : Wire.connect(server);
        try {
            switch (server.protocol) {
                case HTTP -> wire.out.write(Workloads.post(Workloads.payload(0, 512 * 1024)));
                case ECHO -> writeInBackground(wire, Workloads.payload(0, 256 * 1024));
                case WEBSOCKET -> {
                    wire.webSocketHandshake();
                    ByteArrayOutputStream frames = new ByteArrayOutputStream();
                    for (int i = 0; i < 8; i++) {
                        frames.writeBytes(Wire.clientFrame(0x2, Workloads.payload(0, 60_000)));
                    }
                    writeInBackground(wire, frames.toByteArray());
                }
                case HTTP2 -> {
                    ByteArrayOutputStream frames = H2Frames.preface();
                    for (int stream = 1; stream < 40; stream += 2) {
                        frames.writeBytes(H2Frames.get(stream));
                    }
                    wire.out.write(frames.toByteArray());
                }
            }
            wire.in.readNBytes(server.protocol == SoakServer.Protocol.HTTP2 ? 100 : 4096);
        } finally {
            wire.reset();
        }
    }

    /**
     * Ends the client's side in the middle of a request. On plain HTTP and echo a complete request
     * goes first, and its answer must still come (docs/architecture.md, "What was promised is
     * delivered"); then the server must close.
     */
    void halfClose(SoakServer server) throws Exception {
        ledger.fault(HALF_CLOSE);
        try (Wire wire = server.protocol == SoakServer.Protocol.HTTP2 ? Wire.connect(server, "h2") : Wire.connect(server)) {
            switch (server.protocol) {
                case HTTP -> halfCloseHttp(server, wire);
                case ECHO -> {
                    long id = ledger.issue();
                    byte[] message = Workloads.payload(id, 32 * 1024);
                    wire.out.write(message);
                    wire.halfClose();
                    byte[] back = wire.in.readNBytes(message.length);
                    if (Arrays.equals(back, message)) {
                        ledger.answered(server.label, id);
                    } else {
                        ledger.failure(server.label + ": after a half-close, id " + id + " came back as " + back.length + " bytes");
                    }
                    ledger.expected(HALF_CLOSE + " on " + server.label + " -> " + (wire.drainToEnd() ? "closed" : "still open after 30 s"));
                }
                case WEBSOCKET -> {
                    wire.webSocketHandshake();
                    byte[] frame = Wire.clientFrame(0x1, Workloads.payload(0, 1000));
                    wire.out.write(frame, 0, frame.length / 2);
                    wire.halfClose();
                    ledger.expected(HALF_CLOSE + " on " + server.label + " -> " + webSocketEnding(wire));
                }
                case HTTP2 -> {
                    ByteArrayOutputStream frames = H2Frames.preface();
                    byte[] get = H2Frames.get(1);
                    frames.write(get, 0, 12);
                    wire.out.write(frames.toByteArray());
                    wire.halfClose();
                    ledger.expected(HALF_CLOSE + " on " + server.label + " -> " + H2Frames.ending(wire));
                }
            }
        }
    }

    private void halfCloseHttp(SoakServer server, Wire wire) throws IOException {
        if (!server.tls) {
            // A FIN under TLS without close_notify is truncation: only plain HTTP promises the answer.
            long id = ledger.issue();
            wire.write("GET /plaintext?id=" + id + " HTTP/1.1\r\nHost: soak\r\n\r\nGET /plaintext HTTP/1.1\r\nHo");
            wire.halfClose();
            Wire.Response answer = wire.readResponse();
            if (answer != null && answer.status() == 200 && answer.text().equals("Hello, World!")) {
                ledger.answered(server.label, id);
            } else {
                ledger.failure(server.label + ": after a half-close, id " + id + " got " + (answer == null ? "no answer" : answer.status()));
            }
        } else {
            wire.write("POST /echo HTTP/1.1\r\nHost: soak\r\nContent-Length: 100\r\n\r\nonly part of the body");
            wire.halfClose();
        }
        Wire.Response after;
        try {
            after = wire.readResponse();
        } catch (java.net.SocketTimeoutException e) {
            ledger.expected(HALF_CLOSE + " on " + server.label + " -> still open after 30 s");
            return;
        } catch (IOException e) {
            after = null;
        }
        ledger.expected(HALF_CLOSE + " on " + server.label + " -> " + (after == null ? "closed" : after.status() + ", closed"));
    }

    /**
     * Pipelines large requests without reading the answers, waits, then reads them all: a server
     * that stopped reading (back-pressure) must resume and lose nothing.
     */
    void stalledReader(SoakServer server) throws Exception {
        ledger.fault(STALL);
        try (Wire wire = server.protocol == SoakServer.Protocol.HTTP2 ? Wire.connect(server, "h2") : Wire.connect(server)) {
            Map<Long, byte[]> expected = new HashMap<>();
            List<Long> order = new ArrayList<>();
            ByteArrayOutputStream requests = new ByteArrayOutputStream();
            if (server.protocol == SoakServer.Protocol.WEBSOCKET) {
                wire.webSocketHandshake();
            }
            if (server.protocol == SoakServer.Protocol.HTTP2) {
                stalledHttp2(server, wire);
                return;
            }
            int count = server.protocol == SoakServer.Protocol.HTTP ? 8 : 16;
            int size = server.protocol == SoakServer.Protocol.HTTP ? 128 * 1024 : 30_000;
            for (int i = 0; i < count; i++) {
                long id = ledger.issue();
                byte[] body = Workloads.payload(id, size);
                expected.put(id, body);
                order.add(id);
                requests.writeBytes(switch (server.protocol) {
                    case HTTP -> Workloads.post(body);
                    case WEBSOCKET -> Wire.clientFrame(0x2, body);
                    default -> body;
                });
            }
            Future<?> writer = writeInBackground(wire, requests.toByteArray());
            stop.await(2, TimeUnit.SECONDS); // the stall itself; cut short when the soak ends
            for (long id : order) {
                byte[] body = expected.get(id);
                byte[] back = switch (server.protocol) {
                    case HTTP -> {
                        Wire.Response response = wire.readResponse();
                        yield response == null || response.status() != 200 ? null : response.body();
                    }
                    case WEBSOCKET -> {
                        Wire.Frame frame = wire.readFrame();
                        yield frame == null ? null : frame.payload();
                    }
                    default -> wire.in.readNBytes(body.length);
                };
                if (back == null || !Arrays.equals(back, body)) {
                    ledger.failure(server.label + ": after a stall, id " + id + " came back wrong or not at all");
                    return;
                }
                ledger.answered(server.label, id);
            }
            writer.get(30, TimeUnit.SECONDS);
        }
    }

    /** Twenty GETs on their own streams, answers left unread for a while, then each must end once. */
    private void stalledHttp2(SoakServer server, Wire wire) throws Exception {
        ByteArrayOutputStream frames = H2Frames.preface();
        Map<Integer, Long> ids = new HashMap<>();
        for (int stream = 1; stream < 40; stream += 2) {
            ids.put(stream, ledger.issue());
            frames.writeBytes(H2Frames.get(stream));
        }
        wire.out.write(frames.toByteArray());
        stop.await(2, TimeUnit.SECONDS);
        while (!ids.isEmpty()) {
            H2Frames.Frame frame = H2Frames.read(wire);
            if (frame == null || frame.type() == H2Frames.GOAWAY || frame.type() == H2Frames.RST_STREAM) {
                ledger.failure(server.label + ": after a stall, " + ids.size() + " streams ended by "
                        + (frame == null ? "the close" : "frame type " + frame.type()));
                return;
            }
            if ((frame.type() == H2Frames.DATA || frame.type() == H2Frames.HEADERS) && (frame.flags() & H2Frames.END_STREAM) != 0) {
                Long id = ids.remove(frame.stream());
                if (id == null) {
                    ledger.failure(server.label + ": stream " + frame.stream() + " ended twice");
                    return;
                }
                ledger.answered(server.label, id);
            }
        }
    }

    /**
     * Opens {@code count} connections, sends half of them the first bytes of a request, and closes
     * them all without another word.
     */
    void abandon(SoakServer server, int count) throws IOException {
        byte[] start = switch (server.protocol) {
            case HTTP, WEBSOCKET -> "GET / HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII);
            case HTTP2 -> "PRI * HTTP/2.0\r\n".getBytes(StandardCharsets.US_ASCII);
            case ECHO -> "abandoned".getBytes(StandardCharsets.US_ASCII);
            case UDP -> throw new IllegalArgumentException("UDP has no connections to abandon");
        };
        List<Wire> open = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                Wire wire = Wire.connectTcp(server);
                open.add(wire);
                ledger.fault(ABANDON);
                if (i % 2 == 0) {
                    // Under TLS these bytes are not a ClientHello: an abandoned and a garbled start at once.
                    wire.out.write(start);
                }
            }
        } finally {
            open.forEach(Wire::close);
        }
    }

    private Future<?> writeInBackground(Wire wire, byte[] bytes) {
        return writers.submit(() -> {
            wire.out.write(bytes);
            wire.out.flush();
            return null;
        });
    }

    /** The close status the server sent, or how the connection ended without one. */
    static String webSocketEnding(Wire wire) {
        try {
            for (Wire.Frame frame; (frame = wire.readFrame()) != null; ) {
                if (frame.opcode() == 0x8) {
                    return "close " + frame.closeCode();
                }
            }
            return "closed";
        } catch (java.net.SocketTimeoutException e) {
            return "still open after 30 s";
        } catch (IOException e) {
            return "closed";
        }
    }
}
