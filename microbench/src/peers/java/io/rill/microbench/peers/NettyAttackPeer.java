package io.rill.microbench.peers;

import java.util.Arrays;

/**
 * The Netty side of {@code microbench/scripts/h2-attacks.sh}, started as the script starts Rill's
 * example jar: {@code grpc-echo|http2-hello --port P --transport nio|epoll}. {@code grpc-echo} is
 * gRPC Java on Netty ({@link NettyGrpcEchoServer}), {@code http2-hello} Netty's HTTP/2 connection
 * handler with {@code POST /echo} ({@link NettyHttp2HelloServer}), each with as many event loops as
 * Rill's examples have by default.
 */
public final class NettyAttackPeer {

    private NettyAttackPeer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !(args[0].equals("grpc-echo") || args[0].equals("http2-hello"))) {
            System.err.println("usage: NettyAttackPeer grpc-echo|http2-hello --port P [--transport nio|epoll]");
            System.exit(2);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (args[0].equals("grpc-echo")) {
            NettyGrpcEchoServer.main(rest);
        } else {
            String[] withThreads = Arrays.copyOf(rest, rest.length + 2);
            withThreads[rest.length] = "--threads";
            withThreads[rest.length + 1] = String.valueOf(2 * Runtime.getRuntime().availableProcessors());
            NettyHttp2HelloServer.main(withThreads);
        }
    }
}
