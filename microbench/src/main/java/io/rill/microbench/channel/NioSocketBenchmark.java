package io.rill.microbench.channel;

/** {@link SocketBenchmarkBase} over NIO. */
public class NioSocketBenchmark extends SocketBenchmarkBase {

    @Override
    protected Transport transport() {
        return NIO;
    }
}
