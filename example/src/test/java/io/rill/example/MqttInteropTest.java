package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.channel.epoll.Epoll;
import io.rill.example.ForkedExample.Outcome;

/**
 * The MQTT examples against Debian's mosquitto, over NIO and epoll: {@code mosquitto_pub} and
 * {@code mosquitto_sub} (3.1.1 and 5.0; QoS 0, 1 and 2, retained messages, a will, shared
 * subscriptions, a persistent session that gets what was published while it was away, a session
 * that expires, a delayed will cancelled by the client's return) against {@code mqtt-broker}, and
 * {@code mqtt-client} against a real {@code mosquitto} broker started on a free loopback port.
 * Outside CI a missing mosquitto skips; in CI ({@code CI=true}, {@code .ci/run} installs
 * mosquitto and mosquitto-clients) it fails.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MqttInteropTest {

    private static void needTransport(String transport) {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
    }

    private static void needMosquitto() {
        boolean present = Files.isExecutable(Path.of("/usr/bin/mosquitto_pub")) && Files.isExecutable(Path.of("/usr/bin/mosquitto_sub"))
                && Files.isExecutable(Path.of("/usr/sbin/mosquitto"));
        assertTrue(present || !"true".equals(System.getenv("CI")), "CI must install mosquitto mosquitto-clients (.ci/run)");
        assumeTrue(present, "mosquitto is not installed");
    }

    /** A process whose stdout lines are collected as they come. */
    private static final class Lines implements AutoCloseable {
        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        /** Every line, debug output included, in order. */
        final List<String> all = Collections.synchronizedList(new ArrayList<>());

        Lines(List<String> command) throws IOException {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
            TestThreads.run("mqtt-peer-stdout", () -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = out.readLine()) != null; ) {
                        all.add(line);
                        lines.add(line);
                    }
                } catch (IOException ended) {
                    // the process was killed
                }
            });
        }

        /** Waits up to 15 s for a line containing {@code text}; returns the lines before it that are not debug output. */
        List<String> await(String text) throws InterruptedException {
            List<String> seen = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (System.nanoTime() < deadline) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line == null) {
                    continue;
                }
                if (line.contains(text)) {
                    return seen;
                }
                if (!isDebug(line)) {
                    seen.add(line);
                }
            }
            throw new AssertionError("no line with '" + text + "'; saw " + seen + " " + lines);
        }

        /** Waits for the end and returns every non-debug line. */
        List<String> rest() throws InterruptedException {
            assertTrue(process.waitFor(20, TimeUnit.SECONDS), "the peer did not end");
            // The reader thread may still be adding the last lines.
            List<String> all = new ArrayList<>();
            for (String line; (line = lines.poll(500, TimeUnit.MILLISECONDS)) != null; ) {
                if (!isDebug(line)) {
                    all.add(line);
                }
            }
            return all;
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    /** mosquitto_sub's -d output: "Client ... received SUBACK", "Subscribed (mid: 1): 1". */
    private static boolean isDebug(String line) {
        return line.startsWith("Client ") || line.startsWith("Subscribed (mid");
    }

    private static List<String> mosquitto(String tool, int port, String version, String... args) {
        // stdbuf: mosquitto_sub's stdout is a pipe here, which stdio would buffer until exit.
        List<String> command = new ArrayList<>(List.of("stdbuf", "-oL", "/usr/bin/" + tool, "-h", "127.0.0.1", "-p", String.valueOf(port),
                "-V", version));
        command.addAll(List.of(args));
        return command;
    }

    private static void pub(int port, String version, String... args) throws Exception {
        Process p = new ProcessBuilder(mosquitto("mosquitto_pub", port, version, args)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "mosquitto_pub did not end");
        assertEquals(0, p.exitValue(), "mosquitto_pub " + List.of(args) + ": " + out);
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void mosquittoClientsAgainstTheBrokerExample(String transport) throws Exception {
        needTransport(transport);
        needMosquitto();
        try (ForkedExample broker = new ForkedExample("mqtt-broker", "--port", "0", "--transport", transport,
                "--max-session-expiry-s", "30")) {
            int port = broker.port();
            for (String v : List.of("mqttv311", "mqttv5")) {
                // Retained: published first, received by a later subscriber with the retain flag.
                pub(port, v, "-t", v + "/retained", "-m", "kept", "-r", "-q", "1");
                try (Lines sub = new Lines(mosquitto("mosquitto_sub", port, v, "-t", v + "/retained", "-C", "1", "-W", "15", "-v"))) {
                    assertEquals(List.of(v + "/retained kept"), sub.rest());
                }
                // Live, QoS 0 and 1, through a '+' and a '#' filter.
                try (Lines sub = new Lines(mosquitto("mosquitto_sub", port, v, "-t", v + "/live/+", "-t", v + "/deep/#", "-q", "1",
                        "-C", "2", "-W", "15", "-v", "-d"))) {
                    sub.await("SUBACK");
                    pub(port, v, "-t", v + "/live/a", "-m", "zero", "-q", "0");
                    pub(port, v, "-t", v + "/deep/b/c", "-m", "one", "-q", "1");
                    assertEquals(List.of(v + "/live/a zero", v + "/deep/b/c one"), sub.rest());
                }
                // A will: published when its client vanishes without DISCONNECT.
                try (Lines watcher = new Lines(mosquitto("mosquitto_sub", port, v, "-t", v + "/will", "-C", "1", "-W", "15", "-v", "-d"))) {
                    watcher.await("SUBACK");
                    try (Lines doomed = new Lines(mosquitto("mosquitto_sub", port, v, "-t", "nothing", "--will-topic", v + "/will",
                            "--will-payload", "gone", "-d"))) {
                        doomed.await("SUBACK");
                        doomed.process.destroyForcibly(); // SIGKILL: the socket closes, no DISCONNECT
                    }
                    assertEquals(List.of(v + "/will gone"), watcher.rest());
                }
                qos2BothWays(port, v);
                sharedSubscriptionsTakeTurns(port, v);
            }
            sessionsExpireAndAReturnCancelsADelayedWill(broker);
            // A persistent 3.1.1 session (clean session 0): a QoS 1 message published while it is away arrives on return.
            List<String> persistent = List.of("-i", "rill-persistent", "-c", "-q", "1", "-t", "away/#", "-W", "15", "-v", "-d");
            try (Lines first = new Lines(mosquitto("mosquitto_sub", port, "mqttv311", concat(persistent, "-C", "1")))) {
                first.await("SUBACK");
                pub(port, "mqttv311", "-t", "away/first", "-m", "m1", "-q", "1");
                assertEquals(List.of("away/first m1"), first.rest());
            }
            pub(port, "mqttv311", "-t", "away/later", "-m", "m2", "-q", "1");
            try (Lines again = new Lines(mosquitto("mosquitto_sub", port, "mqttv311", concat(persistent, "-C", "1")))) {
                List<String> lines = again.rest();
                assertEquals(List.of("away/later m2"), lines);
            }
        }
    }

    /** QoS 2 from mosquitto_pub to the broker and from the broker to mosquitto_sub: PUBREC, PUBREL, PUBCOMP each way. */
    private static void qos2BothWays(int port, String v) throws Exception {
        try (Lines sub = new Lines(mosquitto("mosquitto_sub", port, v, "-t", v + "/exactly", "-q", "2", "-C", "1", "-W", "15", "-v", "-d"))) {
            sub.await("SUBACK");
            pub(port, v, "-t", v + "/exactly", "-m", "once", "-q", "2");
            assertEquals(List.of(v + "/exactly once"), sub.rest());
            List<String> debug = List.copyOf(sub.all);
            assertTrue(debug.stream().anyMatch(l -> l.contains("received PUBLISH (d0, q2")), "delivered at QoS 2: " + debug);
            assertTrue(debug.stream().anyMatch(l -> l.contains("received PUBREL")), "the broker released it: " + debug);
        }
    }

    /** Two sessions sharing {@code $share/workers/...}: four messages, two each, none twice (5.0 section 4.8.2; mosquitto's clients allow it in 3.1.1 too). */
    private static void sharedSubscriptionsTakeTurns(int port, String v) throws Exception {
        String filter = "$share/workers/" + v + "/jobs/#";
        try (Lines a = new Lines(mosquitto("mosquitto_sub", port, v, "-t", filter, "-q", "1", "-C", "2", "-W", "15", "-v", "-d"));
                Lines b = new Lines(mosquitto("mosquitto_sub", port, v, "-t", filter, "-q", "1", "-C", "2", "-W", "15", "-v", "-d"))) {
            a.await("SUBACK");
            b.await("SUBACK");
            for (int i = 0; i < 4; i++) {
                pub(port, v, "-t", v + "/jobs/" + i, "-m", "job" + i, "-q", "1");
            }
            List<String> got = new ArrayList<>(a.rest());
            List<String> other = b.rest();
            assertEquals(2, got.size(), "one member got " + got);
            assertEquals(2, other.size(), "the other got " + other);
            got.addAll(other);
            assertEquals(Set.of(v + "/jobs/0 job0", v + "/jobs/1 job1", v + "/jobs/2 job2", v + "/jobs/3 job3"), new HashSet<>(got));
        }
    }

    /**
     * MQTT 5 session expiry and will delay, over raw sockets: a client asking for a Session Expiry
     * Interval of 60 s gets the broker's 30 in CONNACK (MQTT-14) and its session is there when it comes
     * back; one of 1 s ends while the client is away (the broker logs it) and is not there afterwards; a will delayed by 60 s is not published when its client
     * returns within the delay (the broker logs the cancelled will; the watcher sees nothing by the
     * time a later message arrives).
     */
    private static void sessionsExpireAndAReturnCancelsADelayedWill(ForkedExample broker) throws Exception {
        int port = broker.port();
        byte[] capped = connectV5(port, "rill-kept", 60, null);
        assertEquals(0, capped[0], "a first connection finds no session");
        assertTrue(contains(capped, new byte[] {0x11, 0, 0, 0, 30}), "CONNACK announces the broker's 30 s: " + Arrays.toString(capped));
        assertEquals(1, connectV5(port, "rill-kept", 0, null)[0], "a session with 30 s of expiry outlives its connection");
        assertEquals(0, connectV5(port, "rill-brief", 1, null)[0]);
        String expired = "Session rill-brief expired";
        assertTrue(broker.awaitLog(expired, 15, TimeUnit.SECONDS).contains(expired), broker::stderr);
        assertEquals(0, connectV5(port, "rill-brief", 0, null)[0], "the expired session is gone");

        try (Lines watcher = new Lines(mosquitto("mosquitto_sub", port, "mqttv5", "-t", "delayed/#", "-C", "1", "-W", "15", "-v", "-d"))) {
            watcher.await("SUBACK");
            assertEquals(0, connectV5(port, "rill-returns", 20, "delayed/will")[0]);
            assertEquals(1, connectV5(port, "rill-returns", 0, null)[0], "back within the will delay");
            String cancelled = "The will of rill-returns is not sent: the client is back";
            assertTrue(broker.awaitLog(cancelled, 15, TimeUnit.SECONDS).contains(cancelled), broker::stderr);
            pub(port, "mqttv5", "-t", "delayed/after", "-m", "later");
            assertEquals(List.of("delayed/after later"), watcher.rest(), "the will was not published");
        }
    }

    /**
     * Sends an MQTT 5 CONNECT (clean start 0, the given Session Expiry Interval, and if {@code willTopic}
     * is set a will on it delayed by 60 s), reads the CONNACK, and returns it after its fixed header
     * (the session-present flag first, then the reason code and the properties).
     * Without a will it ends with DISCONNECT and waits for the broker's close; with one it closes the
     * socket without DISCONNECT, so the will stands.
     */
    private static byte[] connectV5(int port, String clientId, int expirySeconds, String willTopic) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0, 4, 'M', 'Q', 'T', 'T', 5, (byte) (willTopic == null ? 0 : 0x04), 0, 0});
        body.writeBytes(new byte[] {5, 0x11, (byte) (expirySeconds >>> 24), (byte) (expirySeconds >>> 16), (byte) (expirySeconds >>> 8),
                (byte) expirySeconds});
        writeString(body, clientId);
        if (willTopic != null) {
            body.writeBytes(new byte[] {5, 0x18, 0, 0, 0, 60}); // Will Delay Interval 60 s
            writeString(body, willTopic);
            writeString(body, "gone");
        }
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            ByteArrayOutputStream packet = new ByteArrayOutputStream();
            packet.write(0x10);
            packet.write(body.size()); // under 128: one byte of remaining length
            body.writeTo(packet);
            s.getOutputStream().write(packet.toByteArray());
            byte[] head = s.getInputStream().readNBytes(2);
            assertEquals(0x20, head[0] & 0xff, "CONNACK");
            byte[] connAck = s.getInputStream().readNBytes(head[1]); // under 128 bytes: one byte of length
            assertEquals(0, connAck[1], "CONNACK reason");
            if (willTopic == null) {
                // A normal DISCONNECT, then the broker's close: the next connection of this client
                // cannot overtake this one (a will would be discarded by it, so it has none).
                s.getOutputStream().write(new byte[] {(byte) 0xe0, 0});
                assertEquals(-1, s.getInputStream().read(), "the broker closes after DISCONNECT");
            }
            return connAck;
        }
    }

    private static boolean contains(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return true;
            }
        }
        return false;
    }

    private static void writeString(ByteArrayOutputStream out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.write(bytes.length >>> 8);
        out.write(bytes.length);
        out.writeBytes(bytes);
    }

    private static String[] concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all.toArray(new String[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void theClientExampleAgainstMosquitto(String transport, @TempDir Path dir) throws Exception {
        needTransport(transport);
        needMosquitto();
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path conf = dir.resolve("mosquitto.conf");
        Files.writeString(conf, "listener " + port + " 127.0.0.1\nallow_anonymous true\npersistence false\n");
        try (Lines mosquitto = new Lines(List.of("/usr/sbin/mosquitto", "-c", conf.toString(), "-v"))) {
            mosquitto.await("Opening ipv4 listen socket on port " + port);
            for (String v : List.of("--v5", "--v311")) {
                List<String> version = v.equals("--v5") ? List.of("--v5") : List.of();
                List<String> subCommand = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                        "mqtt-client", "--port", String.valueOf(port), "--transport", transport, "--qos", "2", "--count", "2"));
                subCommand.addAll(version);
                subCommand.addAll(List.of("sub", "rill/+/x"));
                // QoS 1 publishes in 3.1.1 and QoS 2 in 5.0: both acknowledgement flows, at no extra process.
                List<String> publishQos = v.equals("--v5") ? List.of("0", "2") : List.of("0", "1");
                try (Lines sub = new Lines(subCommand)) {
                    sub.await("Subscribed to rill/+/x (granted QoS 2)");
                    for (String qos : publishQos) {
                        List<String> pub = new ArrayList<>(List.of("mqtt-client", "--port", String.valueOf(port), "--transport",
                                transport, "--qos", qos));
                        pub.addAll(version);
                        pub.addAll(List.of("pub", "rill/" + qos + "/x", "hello " + qos));
                        Outcome published = ForkedExample.runToEnd("", pub.toArray(new String[0]));
                        assertEquals(0, published.status(), published.toString());
                    }
                    assertEquals(List.of("rill/0/x hello 0", "rill/" + publishQos.get(1) + "/x hello " + publishQos.get(1)), sub.rest());
                    assertEquals(0, sub.process.exitValue());
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void mqtt_13_theBrokerClosesSilentClientsBeforeAndAfterConnect(String transport) throws Exception {
        needTransport(transport);
        try (ForkedExample broker = new ForkedExample("mqtt-broker", "--port", "0", "--transport", transport,
                "--connect-timeout-ms", "300")) {
            // No CONNECT at all: closed at the connect deadline.
            try (Socket idle = new Socket("127.0.0.1", broker.port())) {
                idle.setSoTimeout(10_000);
                long start = System.nanoTime();
                assertEquals(-1, idle.getInputStream().read(), "closed without a CONNECT");
                assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000);
            }
            silentAfterConnect(broker.port());
        }
    }

    /** A client silent after its CONNECT with keep-alive 1 s is closed after about 1.5 s (3.1.2.10). */
    private static void silentAfterConnect(int port) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            // MQTT 3.1.1 CONNECT, client "k", clean session, keep-alive 1 s.
            s.getOutputStream().write(new byte[] {0x10, 13, 0, 4, 'M', 'Q', 'T', 'T', 4, 2, 0, 1, 0, 1, 'k'});
            byte[] connAck = s.getInputStream().readNBytes(4);
            assertEquals(List.of(0x20, 2, 0, 0), List.of((int) connAck[0], (int) connAck[1], (int) connAck[2], (int) connAck[3]));
            long start = System.nanoTime();
            assertEquals(-1, s.getInputStream().read(), "closed, nothing sent");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= 1_200 && millis < 5_000, "closed after " + millis + " ms, expected about 1500");
        }
    }
}
