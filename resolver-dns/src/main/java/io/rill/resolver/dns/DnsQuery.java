package io.rill.resolver.dns;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.ChannelFactory;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.ChannelOption;
import io.rill.channel.FixedRecvByteBufAllocator;
import io.rill.channel.EventLoop;
import io.rill.channel.socket.DatagramPacket;
import io.rill.handler.codec.dns.DnsDecoderException;
import io.rill.handler.codec.dns.DnsMessage;
import io.rill.handler.codec.dns.DnsMessageDecoder;
import io.rill.handler.codec.dns.DnsMessageEncoder;
import io.rill.handler.codec.dns.DnsQuestion;
import io.rill.handler.codec.dns.DnsTcpEncoder;
import io.rill.handler.codec.dns.DnsTcpFrameDecoder;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * One question asked until some server answers it: {@code attempts} rounds over the servers,
 * each try on a fresh UDP socket bound to a port drawn from {@link SecureRandom}, with a fresh ID
 * from it too (RFC 5452 §9.2). A datagram counts as the answer only if it comes from the server's
 * address and port, decodes, is a response, and echoes the ID and the question (RFC 5452 §9.1);
 * anything else is dropped and the try keeps waiting, so a spoofer has to guess 32 bits within
 * one timeout. A truncated answer is asked again over TCP to the same server (RFC 7766 §5).
 * An error RCODE other than NXDOMAIN moves on to the next server. Runs on one event loop.
 */
final class DnsQuery {

    /** The lowest port a query binds; below are the well-known and registered services. */
    private static final int LOWEST_PORT = 1024;
    private static final int PORT_TRIES = 5;
    /** Without EDNS0 an answer is at most 512 octets (RFC 1035 §4.2.1); some servers still send more. */
    private static final int MIN_READ_BUFFER = 2048;

    private final DnsNameResolver resolver;
    private final EventLoop loop;
    private final DnsQuestion question;
    private final List<InetSocketAddress> servers;
    private final int firstServer;
    private final int tries;
    private final Promise<DnsMessage> result;

    private int tryIndex;
    /** The last reason a try failed: the summary when every try has. */
    private int lastRcode = -1;
    private DnsDecoderException lastMalformed;
    private int timeouts;

    DnsQuery(DnsNameResolver resolver, DnsQuestion question, int firstServer) {
        this.resolver = resolver;
        this.loop = resolver.loop();
        this.question = question;
        this.servers = resolver.servers();
        this.firstServer = firstServer;
        this.tries = resolver.attempts() * servers.size();
        this.result = loop.newPromise();
    }

    Future<DnsMessage> start() {
        nextTry();
        return result;
    }

    private void nextTry() {
        if (result.isDone()) {
            return;
        }
        if (resolver.isClosed()) {
            result.tryFailure(new DnsResolveException("resolver closed while asking " + question));
            return;
        }
        if (tryIndex == tries) {
            result.tryFailure(summary());
            return;
        }
        InetSocketAddress server = servers.get((firstServer + tryIndex) % servers.size());
        tryIndex++;
        new UdpTry(server, resolver.random().nextInt(0x10000)).start(PORT_TRIES);
    }

    private DnsResolveException summary() {
        String what = question + " after " + tries + " tries (attempts " + resolver.attempts() + " x " + servers.size()
                + " servers " + servers + ", queryTimeout " + resolver.queryTimeoutMillis() + " ms)";
        if (lastRcode >= 0) {
            return new DnsServerFailureException("DNS servers answered " + DnsMessage.rcodeName(lastRcode) + " for " + what,
                    lastRcode);
        }
        if (lastMalformed != null) {
            return new DnsMalformedAnswerException("only malformed answers (" + timeouts + " tries timed out) for " + what,
                    lastMalformed);
        }
        return new DnsTimeoutException("no answer for " + what);
    }

    /** Whether {@code answer} answers this query's {@code id}; anything else is ignored as spoofed or stray. */
    private boolean isAnswer(DnsMessage answer, int id) {
        return answer.isResponse() && answer.id() == id && answer.opcode() == 0 && answer.questions().size() == 1
                && answer.questions().get(0).matches(question);
    }

    /** Takes a checked answer: done, over TCP again, or on to the next server. */
    private void answered(DnsMessage answer, InetSocketAddress server, boolean overTcp) {
        int rcode = answer.rcode();
        if (!overTcp && answer.isTruncated()) {
            new TcpTry(server, resolver.random().nextInt(0x10000)).start();
        } else if (rcode == DnsMessage.NOERROR || rcode == DnsMessage.NXDOMAIN) {
            result.trySuccess(answer);
        } else {
            lastRcode = rcode;
            nextTry();
        }
    }

    /** One datagram exchange with one server, on a socket of its own. */
    private final class UdpTry implements ChannelHandler {
        private final InetSocketAddress server;
        private final int id;
        private Channel channel;
        private ScheduledFuture<?> timeout;
        private boolean done;

        UdpTry(InetSocketAddress server, int id) {
            this.server = server;
            this.id = id;
        }

        void start(int portTriesLeft) {
            Channel ch;
            try {
                ch = resolver.datagramChannels().newChannel(loop);
                // A datagram longer than the read buffer is cut short; the buffer must hold what we advertised.
                ch.config().setOption(ChannelOption.RCVBUF_ALLOCATOR,
                        new FixedRecvByteBufAllocator(Math.max(MIN_READ_BUFFER, resolver.udpPayloadSize())));
                ch.pipeline().addLast(this);
            } catch (Exception e) {
                result.tryFailure(new DnsResolveException("cannot open a UDP socket for " + question, e));
                return;
            }
            channel = ch;
            resolver.track(ch);
            int port = portTriesLeft > 0 ? LOWEST_PORT + resolver.random().nextInt(0x10000 - LOWEST_PORT) : 0;
            ch.register().addListener((Future<? extends Void> reg) -> {
                if (!reg.isSuccess()) {
                    ch.close();
                    result.tryFailure(new DnsResolveException("cannot register a UDP socket for " + question, reg.cause()));
                    return;
                }
                ch.bind(new InetSocketAddress(port)).addListener((Future<? extends Void> bound) -> {
                    if (!bound.isSuccess()) {
                        ch.close();
                        if (portTriesLeft > 0) {
                            start(portTriesLeft - 1); // the random port was taken
                        } else {
                            result.tryFailure(new DnsResolveException("cannot bind a UDP socket for " + question,
                                    bound.cause()));
                        }
                        return;
                    }
                    send();
                });
            });
        }

        private void send() {
            if (result.isDone()) {
                channel.close();
                return;
            }
            ByteBuf out = channel.alloc().buffer(64);
            try {
                DnsMessageEncoder.encode(DnsMessage.query(id, question, resolver.udpPayloadSize()), out);
            } catch (RuntimeException e) {
                out.release();
                channel.close();
                result.tryFailure(new DnsResolveException("cannot encode " + question, e));
                return;
            }
            timeout = loop.schedule(this::timedOut, resolver.queryTimeoutMillis(), TimeUnit.MILLISECONDS);
            channel.writeAndFlush(new DatagramPacket(out, server));
        }

        private void timedOut() {
            if (finish()) {
                timeouts++;
                nextTry();
            }
        }

        /** Ends this try once: cancels the timer and closes the socket; false if it had ended. */
        private boolean finish() {
            if (done) {
                return false;
            }
            done = true;
            if (timeout != null) {
                timeout.cancel(false);
            }
            channel.close();
            return true;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof DatagramPacket packet)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            try {
                if (done || !server.equals(packet.sender())) {
                    resolver.countIgnored();
                    return;
                }
                DnsMessage answer;
                try {
                    answer = DnsMessageDecoder.decode(packet.content());
                } catch (DnsDecoderException e) {
                    lastMalformed = e;
                    resolver.countIgnored();
                    return;
                }
                if (!isAnswer(answer, id)) {
                    resolver.countIgnored();
                    return;
                }
                finish();
                answered(answer, server, false);
            } finally {
                packet.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // An ICMP port unreachable and the like: the server is not there; the timeout moves on.
        }
    }

    /** The same question over TCP, after a truncated answer. */
    private final class TcpTry implements ChannelHandler {
        private final InetSocketAddress server;
        private final int id;
        private ScheduledFuture<?> timeout;
        private Channel channel;
        private boolean done;

        TcpTry(InetSocketAddress server, int id) {
            this.server = server;
            this.id = id;
        }

        void start() {
            TcpTry self = this;
            timeout = loop.schedule(() -> {
                if (finish()) {
                    timeouts++;
                    nextTry();
                }
            }, resolver.queryTimeoutMillis(), TimeUnit.MILLISECONDS);
            resolver.tcpBootstrap().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new DnsTcpFrameDecoder(), new DnsTcpEncoder(), self);
                }
            }).connect(server).addListener((Future<? extends Channel> f) -> {
                if (!f.isSuccess()) {
                    if (finish()) {
                        timeouts++;
                        nextTry();
                    }
                    return;
                }
                channel = f.getNow();
                resolver.track(channel);
                if (done) {
                    channel.close();
                    return;
                }
                channel.writeAndFlush(DnsMessage.query(id, question, 0));
            });
        }

        private boolean finish() {
            if (done) {
                return false;
            }
            done = true;
            timeout.cancel(false);
            if (channel != null) {
                channel.close();
            }
            return true;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            channel = ctx.channel();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DnsMessage answer = (DnsMessage) msg;
            if (isAnswer(answer, id) && finish()) {
                answered(answer, server, true);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof DnsDecoderException e) {
                lastMalformed = e;
            }
            if (finish()) {
                nextTry();
            }
        }
    }
}
