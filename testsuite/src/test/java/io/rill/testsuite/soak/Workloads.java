package io.rill.testsuite.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The well-behaved half of the load: one call is one connection's worth of requests, each carrying
 * an id the answer must give back (an echoed body; for {@code GET /plaintext}, the position of
 * the answer on a keep-alive connection). A wrong or missing answer is a failure in the
 * {@link Ledger}, never retried.
 */
final class Workloads {

    private final Ledger ledger;

    Workloads(Ledger ledger) {
        this.ledger = ledger;
    }

    /** {@code "id=N;"} then filler up to {@code size} bytes, so that the answer names its request. */
    static byte[] payload(long id, int size) {
        byte[] head = ("id=" + id + ";").getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[Math.max(head.length, size)];
        System.arraycopy(head, 0, body, 0, head.length);
        for (int i = head.length; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        return body;
    }

    static byte[] post(byte[] body) {
        ByteArrayOutputStream request = new ByteArrayOutputStream(body.length + 80);
        request.writeBytes(("POST /echo HTTP/1.1\r\nHost: soak\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(body);
        return request.toByteArray();
    }

    /** Keep-alive GETs and POSTs one at a time, then a pipelined batch of POSTs in one write. */
    void http(SoakServer server) throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Wire wire = Wire.connect(server)) {
            for (int i = 0; i < 10; i++) {
                long id = ledger.issue();
                if (i % 2 == 0) {
                    wire.write("GET /plaintext?id=" + id + " HTTP/1.1\r\nHost: soak\r\n\r\n");
                    expectAnswer(server, id, wire.readResponse(), "Hello, World!".getBytes(StandardCharsets.US_ASCII));
                } else {
                    byte[] body = payload(id, random.nextInt(8192));
                    wire.out.write(post(body));
                    expectAnswer(server, id, wire.readResponse(), body);
                }
            }
            int batch = 16;
            long[] ids = new long[batch];
            byte[][] bodies = new byte[batch][];
            ByteArrayOutputStream pipelined = new ByteArrayOutputStream();
            for (int i = 0; i < batch; i++) {
                ids[i] = ledger.issue();
                bodies[i] = payload(ids[i], random.nextInt(2048));
                pipelined.writeBytes(post(bodies[i]));
            }
            wire.out.write(pipelined.toByteArray());
            for (int i = 0; i < batch; i++) {
                expectAnswer(server, ids[i], wire.readResponse(), bodies[i]);
            }
        }
    }

    private void expectAnswer(SoakServer server, long id, Wire.Response response, byte[] body) throws IOException {
        if (response == null || response.status() != 200 || !Arrays.equals(response.body(), body)) {
            String what = response == null ? "no answer" : response.status() + " " + abbreviate(response.text());
            ledger.failure(server.label + ": request id " + id + " got " + what);
            throw new IOException("wrong answer; the connection is abandoned");
        }
        ledger.answered(server.label, id);
    }

    /** Messages of up to 16 KiB with their ids, each read back whole before the next is sent. */
    void echo(SoakServer server) throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Wire wire = Wire.connect(server)) {
            for (int i = 0; i < 20; i++) {
                long id = ledger.issue();
                byte[] message = payload(id, 1 + random.nextInt(16384));
                wire.out.write(message);
                byte[] back = wire.in.readNBytes(message.length);
                if (!Arrays.equals(back, message)) {
                    ledger.failure(server.label + ": id " + id + " echoed as " + abbreviate(new String(back, StandardCharsets.ISO_8859_1)));
                    return;
                }
                ledger.answered(server.label, id);
            }
        }
    }

    /** Text and binary messages with their ids, a ping among them, then the close handshake. */
    void webSocket(SoakServer server) throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Wire wire = Wire.connect(server)) {
            wire.webSocketHandshake();
            for (int i = 0; i < 20; i++) {
                long id = ledger.issue();
                int opcode = i % 2 == 0 ? 0x1 : 0x2;
                byte[] message = payload(id, random.nextInt(16384));
                if (i == 10) {
                    wire.out.write(Wire.clientFrame(0x9, "ping".getBytes(StandardCharsets.US_ASCII)));
                }
                wire.out.write(Wire.clientFrame(opcode, message));
                Wire.Frame frame = wire.readFrame();
                while (frame != null && frame.opcode() == 0xA) {
                    frame = wire.readFrame(); // the ping's pong
                }
                if (frame == null || frame.opcode() != opcode || !Arrays.equals(frame.payload(), message)) {
                    ledger.failure(server.label + ": message id " + id + " echoed as "
                            + (frame == null ? "nothing" : "opcode " + frame.opcode() + " " + frame.payload().length + " bytes"));
                    return;
                }
                ledger.answered(server.label, id);
            }
            wire.out.write(Wire.clientFrame(0x8, new byte[] {0x03, (byte) 0xE8}));
            Wire.Frame close = wire.readFrame();
            while (close != null && close.opcode() != 0x8) {
                close = wire.readFrame();
            }
            if (close == null || close.closeCode() != 1000) {
                ledger.failure(server.label + ": the close handshake was answered with " + (close == null ? "nothing" : close.closeCode()));
            }
        }
    }

    /**
     * Rounds of twenty concurrent POSTs multiplexed on one HTTP/2 connection (h2c by prior knowledge,
     * or h2 by ALPN), each echoing its id; then GOAWAY and the close. The client is hand-written
     * ({@link H2Frames}) so that the driver decides when its connections end.
     */
    void http2(SoakServer server) throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        byte[] headers = H2Frames.postEcho(server.tls);
        try (Wire wire = Wire.connect(server, "h2")) {
            wire.out.write(H2Frames.preface().toByteArray());
            H2Frames.Conversation conversation = new H2Frames.Conversation(wire);
            int nextStream = 1;
            for (int round = 0; round < 10; round++) {
                Map<Integer, Long> ids = new HashMap<>();
                Map<Integer, byte[]> bodies = new HashMap<>();
                ByteArrayOutputStream frames = new ByteArrayOutputStream();
                for (int i = 0; i < 20; i++, nextStream += 2) {
                    long id = ledger.issue();
                    byte[] body = payload(id, random.nextInt(2048)); // 20 of them fit the initial 64 KiB window
                    ids.put(nextStream, id);
                    bodies.put(nextStream, body);
                    frames.writeBytes(H2Frames.frame(H2Frames.HEADERS, H2Frames.END_HEADERS, nextStream, headers));
                    frames.writeBytes(H2Frames.frame(H2Frames.DATA, H2Frames.END_STREAM, nextStream, body));
                }
                conversation.awaitSendWindow(frames.size());
                wire.out.write(frames.toByteArray());
                conversation.spent(bodies.values().stream().mapToInt(b -> b.length).sum());
                while (!ids.isEmpty()) {
                    H2Frames.Answer answer = conversation.nextAnswer();
                    Long id = ids.remove(answer.stream());
                    if (id == null || !Arrays.equals(answer.body(), bodies.get(answer.stream()))) {
                        ledger.failure(server.label + ": stream " + answer.stream() + " answered "
                                + abbreviate(new String(answer.body(), StandardCharsets.ISO_8859_1)) + (id == null ? " twice" : ""));
                        throw new IOException("wrong answer; the connection is abandoned");
                    }
                    ledger.answered(server.label, id);
                }
            }
            wire.out.write(H2Frames.frame(H2Frames.GOAWAY, 0, 0, new byte[8]));
        }
    }

    static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }

    /**
     * A window of 32 datagrams with ids, from one socket; each must come back once and unchanged.
     * UDP may drop: a datagram not back within 2 s is counted as dropped, apart from lost requests.
     * A short last wait catches an answer sent twice right after the others.
     */
    void udp(SoakServer server) throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress target = new InetSocketAddress("127.0.0.1", server.port());
            Map<Long, byte[]> waiting = new HashMap<>();
            for (int i = 0; i < 32; i++) {
                long id = ledger.issue();
                byte[] datagram = payload(id, random.nextInt(2000)); // within udp-echo's 2048 bytes
                waiting.put(id, datagram);
                socket.send(new DatagramPacket(datagram, datagram.length, target));
            }
            Set<Long> answered = new HashSet<>();
            byte[] buffer = new byte[65536];
            socket.setSoTimeout(2000);
            for (boolean last = false; !last; ) {
                last = waiting.isEmpty();
                if (last) {
                    socket.setSoTimeout(20);
                }
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(packet);
                } catch (SocketTimeoutException e) {
                    break;
                }
                String text = new String(buffer, 0, packet.getLength(), StandardCharsets.ISO_8859_1);
                long id = text.startsWith("id=") && text.indexOf(';') > 3 ? Long.parseLong(text.substring(3, text.indexOf(';'))) : -1;
                byte[] expected = waiting.remove(id);
                if (expected == null) {
                    ledger.failure(server.label + ": datagram " + abbreviate(text) + (answered.contains(id) ? " answered twice" : " never sent"));
                } else if (!Arrays.equals(expected, 0, expected.length, buffer, 0, packet.getLength())) {
                    ledger.failure(server.label + ": datagram id " + id + " echoed as " + abbreviate(text));
                } else {
                    answered.add(id);
                    ledger.answered(server.label, id);
                }
            }
            waiting.keySet().forEach(id -> ledger.dropped(server.label, id));
        }
    }
}
