package io.rill.handler.ssl;

import static io.rill.handler.ssl.TlsFixtures.LOCALHOST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import javax.net.ssl.SSLEngine;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBufAllocator;

/** The OPENSSL provider's native contexts and engines are freed deterministically. */
class OpenSslNativeResourcesTest {

    @BeforeAll
    static void openSslAvailable() {
        Assumptions.assumeTrue(SslProvider.OPENSSL.isAvailable());
    }

    @Test
    void aContextIsFreedWhenItAndTheLastOfItsEnginesAreReleased() throws Exception {
        int contexts = OpenSsl.CONTEXTS_ALIVE.get();
        int engines = OpenSsl.ENGINES_ALIVE.get();
        SslContext context = SslContextBuilder.forServer(LOCALHOST.key(), LOCALHOST.certificate())
                .sslProvider(SslProvider.OPENSSL).build();
        assertEquals(contexts + 1, OpenSsl.CONTEXTS_ALIVE.get());
        SSLEngine engine = context.newEngine(ByteBufAllocator.DEFAULT);
        assertEquals(engines + 1, OpenSsl.ENGINES_ALIVE.get());

        context.close();
        context.close(); // idempotent
        assertEquals(contexts + 1, OpenSsl.CONTEXTS_ALIVE.get(), "the engine still holds the context");
        ((NativeEngine) engine).free();
        ((NativeEngine) engine).free();
        assertEquals(engines, OpenSsl.ENGINES_ALIVE.get());
        assertEquals(contexts, OpenSsl.CONTEXTS_ALIVE.get());
        assertThrows(IllegalStateException.class, () -> context.newEngine(ByteBufAllocator.DEFAULT));
    }

    @Test
    void aHandlerFreesItsEngineWhenTheChannelCloses() throws Exception {
        int engines = OpenSsl.ENGINES_ALIVE.get();
        try (SslContext context = SslContextBuilder.forServer(LOCALHOST.key(), LOCALHOST.certificate())
                .sslProvider(SslProvider.OPENSSL).build()) {
            TlsPeer server = new TlsPeer(context.newHandler(ByteBufAllocator.DEFAULT));
            assertEquals(engines + 1, OpenSsl.ENGINES_ALIVE.get());
            server.channel.close();
            assertEquals(engines, OpenSsl.ENGINES_ALIVE.get());
            server.dispose();
        }
    }
}
