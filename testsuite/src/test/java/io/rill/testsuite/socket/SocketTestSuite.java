package io.rill.testsuite.socket;

import org.junit.jupiter.api.Nested;

import io.rill.handler.ssl.SslProvider;

/**
 * Every socket test, for one transport. A transport's test class extends this and answers
 * {@link #transport()} (see {@link SocketTransport} for a complete example); JUnit runs each
 * nested group below against it. Add a new group here, once, and every transport runs it.
 */
public abstract class SocketTestSuite {

    /** The transport under test; called before each test. */
    protected abstract SocketTransport transport();

    @Nested
    class Echo extends SocketEchoTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Lifecycle extends SocketLifecycleTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class LoopSurvival extends SocketLoopSurvivalTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class WrongUse extends SocketWrongUseTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class HalfClosure extends SocketHalfClosureTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Connect extends SocketConnectTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class ResetAndClose extends SocketResetAndCloseTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class BackPressure extends SocketBackPressureTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class ReadFairness extends SocketReadFairnessTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class HttpDelivery extends SocketHttpDeliveryTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class ResourceExhaustion extends SocketResourceExhaustionTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class FileRegion extends SocketFileRegionTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class DescriptorLeak extends SocketDescriptorLeakTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Datagram extends SocketDatagramTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Framing extends SocketFramingTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Handlers extends SocketHandlerTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class TlsJdk extends SocketTlsTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }

        @Override
        protected SslProvider provider() {
            return SslProvider.JDK;
        }
    }

    @Nested
    class TlsOpenSsl extends SocketTlsTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }

        @Override
        protected SslProvider provider() {
            return SslProvider.OPENSSL;
        }
    }

    @Nested
    class AcceptExhaustion extends SocketAcceptExhaustionTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }

        @Override
        protected Class<? extends SocketTestSuite> suiteClass() {
            return SocketTestSuite.this.getClass();
        }
    }

    @Nested
    class HttpSecurity extends SocketHttpSecurityTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Http extends SocketHttpTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Http2 extends SocketHttp2Tests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class WebSocket extends SocketWebSocketTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class WebSocketOverHttp2 extends SocketWebSocketOverHttp2Tests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Rebind extends SocketRebindTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Proxy extends SocketProxyTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Redis extends SocketRedisTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Mqtt extends SocketMqttTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class ChannelPools extends SocketChannelPoolTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }

    @Nested
    class Http2Pools extends SocketHttp2PoolTests {
        @Override
        protected SocketTransport transport() {
            return SocketTestSuite.this.transport();
        }
    }
}
