package io.rill.resolver.dns;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.handler.codec.dns.DnsMessage;
import io.rill.handler.codec.dns.DnsMessageDecoder;
import io.rill.handler.codec.dns.DnsMessageEncoder;
import io.rill.handler.codec.dns.DnsQuestion;
import io.rill.handler.codec.dns.DnsRdata;
import io.rill.handler.codec.dns.DnsRecord;

/**
 * A DNS server on 127.0.0.1 (UDP and TCP on one random port) whose answers a test scripts: for
 * each query a function returns what to send back, in order, including datagrams from a second
 * socket (a spoofer's port) and raw bytes. Plain JDK sockets, so its bugs cannot hide ours.
 */
final class ScriptedDnsServer implements AutoCloseable {

    /** One thing to send back for a query. */
    record Reply(byte[] bytes, boolean fromOtherPort) {
        static Reply of(DnsMessage m) {
            return new Reply(encode(m), false);
        }

        static Reply fromOtherPort(DnsMessage m) {
            return new Reply(encode(m), true);
        }

        static Reply raw(byte[] bytes) {
            return new Reply(bytes, false);
        }
    }

    /** A query as it arrived. */
    record Received(DnsMessage query, int sourcePort, boolean overTcp) {
    }

    private final DatagramSocket udp;
    private final DatagramSocket spoofer;
    private final ServerSocket tcp;
    private final Thread udpThread;
    private final Thread tcpThread;
    final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    /** Counted down when the first query has arrived. */
    final CountDownLatch firstQuery = new CountDownLatch(1);
    private volatile Function<DnsMessage, List<Reply>> udpScript;
    private volatile Function<DnsMessage, List<Reply>> tcpScript;

    ScriptedDnsServer(Function<DnsMessage, List<Reply>> udpScript) throws IOException {
        this(udpScript, q -> List.of());
    }

    ScriptedDnsServer(Function<DnsMessage, List<Reply>> udpScript, Function<DnsMessage, List<Reply>> tcpScript)
            throws IOException {
        this.udpScript = udpScript;
        this.tcpScript = tcpScript;
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        DatagramSocket u = null;
        ServerSocket t = null;
        for (int i = 0; i < 20 && t == null; i++) {
            u = new DatagramSocket(new InetSocketAddress(lo, 0));
            try {
                t = new ServerSocket(u.getLocalPort(), 16, lo);
            } catch (IOException taken) {
                u.close();
            }
        }
        if (t == null) {
            throw new IOException("no port free for both UDP and TCP");
        }
        udp = u;
        tcp = t;
        spoofer = new DatagramSocket(new InetSocketAddress(lo, 0));
        udpThread = new Thread(this::serveUdp, "scripted-dns-udp");
        tcpThread = new Thread(this::serveTcp, "scripted-dns-tcp");
        udpThread.setDaemon(true);
        tcpThread.setDaemon(true);
        udpThread.start();
        tcpThread.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(udp.getLocalAddress(), udp.getLocalPort());
    }

    void script(Function<DnsMessage, List<Reply>> udpScript) {
        this.udpScript = udpScript;
    }

    List<Received> receivedSoFar() {
        return new ArrayList<>(received);
    }

    private void serveUdp() {
        byte[] buf = new byte[65535];
        while (!udp.isClosed()) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                udp.receive(p);
                DnsMessage q = decode(java.util.Arrays.copyOf(p.getData(), p.getLength()));
                received.add(new Received(q, p.getPort(), false));
                firstQuery.countDown();
                for (Reply r : udpScript.apply(q)) {
                    DatagramPacket out = new DatagramPacket(r.bytes(), r.bytes().length, p.getSocketAddress());
                    (r.fromOtherPort() ? spoofer : udp).send(out);
                }
            } catch (SocketException closed) {
                return;
            } catch (IOException | RuntimeException e) {
                // a query we cannot read: a real server would drop it too
            }
        }
    }

    private void serveTcp() {
        while (!tcp.isClosed()) {
            try (Socket s = tcp.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                byte[] frame = new byte[in.readUnsignedShort()];
                in.readFully(frame);
                DnsMessage q = decode(frame);
                received.add(new Received(q, s.getPort(), true));
                for (Reply r : tcpScript.apply(q)) {
                    out.writeShort(r.bytes().length);
                    out.write(r.bytes());
                }
                out.flush();
                s.shutdownOutput();
                while (in.read() >= 0) {
                    // wait for the client's close, so our FIN is read before the socket goes
                }
            } catch (IOException e) {
                if (tcp.isClosed()) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() throws Exception {
        udp.close();
        spoofer.close();
        tcp.close();
        udpThread.join(5000);
        tcpThread.join(5000);
    }

    static byte[] encode(DnsMessage m) {
        ByteBuf b = Unpooled.buffer();
        try {
            DnsMessageEncoder.encode(m, b);
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    static DnsMessage decode(byte[] bytes) {
        ByteBuf b = Unpooled.wrappedBuffer(bytes);
        try {
            return DnsMessageDecoder.decode(b);
        } finally {
            b.release();
        }
    }

    /** The answer a recursive server gives: the query's ID and question, QR and RA set. */
    static DnsMessage answer(DnsMessage q, int rcode, List<DnsRecord> answers, List<DnsRecord> authorities) {
        return new DnsMessage(q.id(), DnsMessage.FLAG_QR | DnsMessage.FLAG_RD | DnsMessage.FLAG_RA | rcode,
                q.questions(), answers, authorities, List.of(), null);
    }

    static DnsRecord a(String name, String address, long ttl) {
        try {
            return new DnsRecord(name, io.rill.handler.codec.dns.DnsRecordType.A, 1, ttl,
                    new DnsRdata.Address(InetAddress.getByName(address)));
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static DnsQuestion question(DnsMessage q) {
        return q.questions().get(0);
    }
}
