/**
 * Rill's runtime base: futures, executors, timers, thread-locals, leak detection, the
 * native-library loader and logging through {@link java.lang.System.Logger}.
 *
 * <h2>The modules of Rill</h2>
 * Rill is an asynchronous, event-driven network framework for the JVM in the style of Netty,
 * written for Java 17+. Each module below is one Maven artifact ({@code io.rill:rill-<folder>},
 * versions aligned by importing {@code io.rill:rill-bom}) and one JPMS module; a module only
 * depends on the ones above it in the table, and requires the one just above transitively.
 *
 * <table class="striped">
 * <caption>Rill's published modules, from the bottom of the stack up</caption>
 * <thead>
 * <tr><th scope="col">JPMS module</th><th scope="col">artifact</th><th scope="col">what it holds</th></tr>
 * </thead>
 * <tbody>
 * <tr><th scope="row">{@code io.rill.common}</th><td>{@code rill-common}</td>
 *     <td>this module: {@code Future} and {@code Promise}, event executors and their groups,
 *     the hashed wheel timer, {@code FastThreadLocal}, the object pool, the resource leak
 *     detector, {@code AsciiString}, {@code NativeLibraryLoader}, {@code RillProperties}</td></tr>
 * <tr><th scope="row">{@code io.rill.buffer}</th><td>{@code rill-buffer}</td>
 *     <td>{@code ByteBuf} (heap, direct, composite and their views), reference counting, the
 *     pooled allocator and its metrics</td></tr>
 * <tr><th scope="row">{@code io.rill.transport}</th><td>{@code rill-transport}</td>
 *     <td>{@code Channel}, {@code ChannelPipeline}, {@code ChannelHandler}, event loops driving
 *     a pluggable {@code IoHandler}, the NIO and in-VM local transports, {@code Bootstrap},
 *     {@code ServerBootstrap}, {@code ChannelGroup} and {@code EmbeddedChannel} for tests</td></tr>
 * <tr><th scope="row">{@code io.rill.transport.epoll}</th><td>{@code rill-transport-native-epoll}</td>
 *     <td>Linux only: the edge-triggered epoll transport over a JNI library shipped in the jar
 *     (and alone in the {@code linux-x86_64} or {@code linux-aarch64} classifier jar); TCP,
 *     Unix-domain and UDP channels with Linux socket options</td></tr>
 * <tr><th scope="row">{@code io.rill.codec}</th><td>{@code rill-codec}</td>
 *     <td>{@code ByteToMessageDecoder} and the encoder bases, bounded frame decoders, string,
 *     line and Base64 codecs, compression</td></tr>
 * <tr><th scope="row">{@code io.rill.handler}</th><td>{@code rill-handler}</td>
 *     <td>TLS ({@code SslHandler} over the JDK engine or BoringSSL), idle and read/write
 *     timeouts, logging, flush consolidation, chunked writes, traffic shaping, IP filters</td></tr>
 * <tr><th scope="row">{@code io.rill.codec.http}</th><td>{@code rill-codec-http}</td>
 *     <td>HTTP/1.1 server and client codecs, aggregation, compression, cookies, forms and
 *     multipart, CORS, WebSocket with permessage-deflate; its module page walks through a first
 *     server</td></tr>
 * <tr><th scope="row">{@code io.rill.codec.http2}</th><td>{@code rill-codec-http2}</td>
 *     <td>HTTP/2 and HPACK, the h2c upgrade, ALPN negotiation, HTTP/1 handlers on HTTP/2
 *     streams, WebSocket over HTTP/2</td></tr>
 * </tbody>
 * </table>
 *
 * <p>The project's README, at the root of its source tree, explains how to build and depend on
 * Rill, its tuning properties and the status of each module.
 *
 * <h2>Native access</h2>
 * On JDK 24 and later the JVM warns when a module without native access calls
 * {@link java.lang.System#load}. {@code NativeLibraryLoader.load(String, ClassLoader)} makes that
 * call from this module; a caller that passes its own {@code NativeLibraryLoader.Linker} makes it
 * from its own module (the epoll transport does, so its library binds to its class loader), and
 * that module is the one to name: {@code --enable-native-access=io.rill.transport.epoll} on the
 * module path, {@code --enable-native-access=ALL-UNNAMED} on the class path.
 */
module io.rill.common {
    // JFR events (io.rill.TaskLag, io.rill.LeakDetected); they cost nothing while no recording wants them.
    requires jdk.jfr;

    exports io.rill.util;
    exports io.rill.util.concurrent;
}
