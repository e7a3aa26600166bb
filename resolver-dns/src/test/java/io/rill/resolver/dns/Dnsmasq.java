package io.rill.resolver.dns;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.handler.codec.dns.DnsMessage;
import io.rill.handler.codec.dns.DnsQuestion;

/**
 * Debian's dnsmasq on 127.0.0.1 and a free port, answering from a hosts file and the given
 * {@code --address}/{@code --cname} options only (no upstream, no /etc/hosts, no config file).
 * Started as root it drops to user nobody by itself, so the files it reads are world-readable.
 */
final class Dnsmasq implements AutoCloseable {

    private final Process process;
    private final InetSocketAddress address;

    private Dnsmasq(Process process, InetSocketAddress address) {
        this.process = process;
        this.address = address;
    }

    static boolean installed() {
        return executable() != null;
    }

    /** Debian installs it in /usr/sbin, which a test JVM's PATH may lack. */
    private static Path executable() {
        for (String dir : List.of("/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin")) {
            if (Files.isExecutable(Path.of(dir, "dnsmasq"))) {
                return Path.of(dir, "dnsmasq");
            }
        }
        return null;
    }

    static Dnsmasq start(Path dir, String hosts, String... options) throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path hostsFile = dir.resolve("dnsmasq.hosts");
        Files.writeString(hostsFile, hosts);
        Files.setPosixFilePermissions(hostsFile, PosixFilePermissions.fromString("rw-r--r--"));
        // A port free now may be taken before dnsmasq binds it (other builds share the machine): try again then.
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = freePort();
            List<String> cmd = new ArrayList<>(List.of(executable().toString(), "--no-daemon", "--port=" + port,
                    "--listen-address=127.0.0.1", "--bind-interfaces", "--no-resolv", "--no-hosts",
                    "--addn-hosts=" + hostsFile, "--conf-file=/dev/null", "--pid-file=", "--cache-size=0"));
            cmd.addAll(List.of(options));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("dnsmasq.log").toFile()).start();
            Dnsmasq d = new Dnsmasq(p, new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
            try {
                d.awaitReady(dir);
                return d;
            } catch (IOException e) {
                d.close();
                last = e;
            }
        }
        throw last;
    }

    InetSocketAddress address() {
        return address;
    }

    /** Asks until an answer comes: each try waits up to 100 ms on the socket, 10 s in all. */
    private void awaitReady(Path dir) throws Exception {
        byte[] query = ScriptedDnsServer.encode(DnsMessage.query(1, DnsQuestion.in("ready.probe", 1), 0));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(100);
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IOException("dnsmasq exited: " + Files.readString(dir.resolve("dnsmasq.log")));
                }
                s.send(new DatagramPacket(query, query.length, address));
                try {
                    s.receive(new DatagramPacket(new byte[512], 512));
                    return;
                } catch (SocketTimeoutException notYet) {
                    // not listening yet
                }
            }
        }
        throw new IOException("dnsmasq did not answer within 10 s: " + Files.readString(dir.resolve("dnsmasq.log")));
    }

    private static int freePort() throws IOException {
        for (int i = 0; i < 50; i++) {
            try (DatagramSocket u = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"));
                 ServerSocket t = new ServerSocket(u.getLocalPort(), 1, InetAddress.getByName("127.0.0.1"))) {
                return t.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no port free for both UDP and TCP");
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
