package io.rill.microbench.peers;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;

import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;

/**
 * The peer of Rill's {@code grpc-echo} in {@code microbench/scripts/h2-attacks.sh}: gRPC Java on
 * its own (shaded) Netty, the way gRPC servers on Netty are deployed, with the same two methods
 * over opaque bytes: {@code /rill.echo.Echo/Unary} answers a message with itself and the bidi
 * {@code /rill.echo.Echo/Stream} echoes each message. The stream echo uses gRPC's manual flow
 * control, as its documentation advises for a server that must not buffer without bound: it asks
 * for the next message only while the call is ready for output. Messages are limited to 4 MiB
 * (gRPC's default, and {@code grpc-echo}'s). h2c only.
 * Usage: {@code [--transport nio|epoll] [--threads N] --port PORT}.
 */
public final class NettyGrpcEchoServer {

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private NettyGrpcEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        String transport = "nio";
        int threads = 2 * Runtime.getRuntime().availableProcessors(); // as Rill's and Netty's defaults
        int port = -1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--transport" -> transport = args[++i];
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--port" -> port = Integer.parseInt(args[++i]);
                default -> port = Integer.parseInt(args[i]);
            }
        }
        if (port < 0 || !(transport.equals("nio") || transport.equals("epoll"))) {
            System.err.println("usage: NettyGrpcEchoServer [--transport nio|epoll] [--threads N] --port PORT");
            System.exit(2);
        }
        boolean epoll = transport.equals("epoll");
        EventLoopGroup boss = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        EventLoopGroup workers = epoll ? new EpollEventLoopGroup(threads) : new NioEventLoopGroup(threads);
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
                .channelType(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .bossEventLoopGroup(boss).workerEventLoopGroup(workers)
                .maxInboundMessageSize(4 * 1024 * 1024)
                .addService(echoService())
                .build().start();
        System.out.println("Listening on 127.0.0.1:" + port);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdownNow();
            boss.shutdownGracefully();
            workers.shutdownGracefully();
        }));
        server.awaitTermination();
    }

    private static ServerServiceDefinition echoService() {
        MethodDescriptor<byte[], byte[]> unary = method("Unary", MethodDescriptor.MethodType.UNARY);
        MethodDescriptor<byte[], byte[]> stream = method("Stream", MethodDescriptor.MethodType.BIDI_STREAMING);
        return ServerServiceDefinition.builder("rill.echo.Echo")
                .addMethod(unary, ServerCalls.asyncUnaryCall((request, response) -> {
                    response.onNext(request);
                    response.onCompleted();
                }))
                .addMethod(stream, ServerCalls.asyncBidiStreamingCall(NettyGrpcEchoServer::echoStream))
                .build();
    }

    private static MethodDescriptor<byte[], byte[]> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName("rill.echo.Echo", name))
                .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
    }

    /** Echoes each message, asking for the next one only while the response side is ready. */
    private static StreamObserver<byte[]> echoStream(StreamObserver<byte[]> responses) {
        ServerCallStreamObserver<byte[]> out = (ServerCallStreamObserver<byte[]>) responses;
        out.disableAutoRequest();
        boolean[] waiting = {true}; // a message was asked for and has not arrived yet; call-serialized
        out.setOnReadyHandler(() -> {
            if (out.isReady() && !waiting[0]) {
                waiting[0] = true;
                out.request(1);
            }
        });
        out.request(1);
        return new StreamObserver<>() {
            @Override
            public void onNext(byte[] message) {
                out.onNext(message);
                waiting[0] = out.isReady();
                if (waiting[0]) {
                    out.request(1);
                }
            }

            @Override
            public void onError(Throwable t) {
                // the client went away: nothing to answer
            }

            @Override
            public void onCompleted() {
                out.onCompleted();
            }
        };
    }
}
