package io.rill.testsuite.differential;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMessage;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObject;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpRequestDecoder;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;

/**
 * Rill's side of the differential run: each corpus entry goes through a fresh
 * {@link HttpRequestDecoder} (strict defaults) or {@link HttpClientCodec} (after the request it
 * answers was written) in an {@link EmbeddedChannel}, then the channel closes, and the verdict is
 * one canonical line, the same one {@code llhttp-runner.js} and {@code h11-runner.py} print:
 *
 * <pre>
 *   A msg msg ...      every byte was read into complete messages
 *   R reason           the parser refused the input, or the input ended inside a message
 *   msg  = version,head,fields,length:sha256(body),trailers
 *   head = hex(method).hex(target) for a request, the status code for a response
 *   fields = hex(lower-case name)=hex(value) joined by '+', values without surrounding SP/HTAB
 *   a final '^' after a message means the connection switched protocols after it
 * </pre>
 */
final class RillHttpRunner {

    private static final HexFormat HEX = HexFormat.of();

    private RillHttpRunner() {
    }

    /** The verdict line for one entry. */
    static String run(HttpCorpus.Entry entry) {
        boolean request = entry.requestMethod().equals("-");
        EmbeddedChannel channel;
        if (request) {
            channel = new EmbeddedChannel(new HttpRequestDecoder());
        } else {
            channel = new EmbeddedChannel(new HttpClientCodec());
            channel.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1,
                    HttpMethod.valueOf(entry.requestMethod()), "/"));
            channel.releaseOutbound();
        }
        String reason = null;
        try {
            channel.writeInbound(Unpooled.copiedBuffer(entry.bytes())); // a copy: the decoder owns its input and may move bytes in it
            channel.finish();
        } catch (RuntimeException e) {
            reason = "exception " + e;
        }
        return reason != null ? drainAndReject(channel, reason) : verdict(channel);
    }

    private static String verdict(EmbeddedChannel channel) {
        List<String> messages = new ArrayList<>();
        String reason = null;
        StringBuilder current = null;
        MessageDigest body = sha256();
        long bodyLength = 0;
        boolean switched = false;
        Object o;
        while ((o = channel.readInbound()) != null) {
            try {
                if (reason != null) {
                    continue;
                }
                if (o instanceof ByteBuf) {
                    switched = true; // the raw bytes after 101 or a 2xx to CONNECT
                    continue;
                }
                HttpObject http = (HttpObject) o;
                if (http.decoderResult().isFailure()) {
                    reason = String.valueOf(http.decoderResult().cause().getMessage()).replace('\n', ' ');
                    continue;
                }
                if (http instanceof HttpMessage m) {
                    current = new StringBuilder();
                    current.append(m.protocolVersion().majorVersion()).append('.').append(m.protocolVersion().minorVersion()).append(',');
                    if (m instanceof HttpRequest r) {
                        current.append(hex(r.method().name())).append('.').append(hex(r.uri()));
                    } else {
                        current.append(((HttpResponse) m).status().code());
                    }
                    current.append(',').append(fields(m.headers())).append(',');
                    body.reset();
                    bodyLength = 0;
                }
                if (http instanceof HttpContent c) {
                    ByteBuf content = c.content();
                    byte[] bytes = new byte[content.readableBytes()];
                    content.getBytes(content.readerIndex(), bytes);
                    body.update(bytes);
                    bodyLength += bytes.length;
                }
                if (http instanceof LastHttpContent last) {
                    current.append(bodyLength).append(':').append(HEX.formatHex(body.digest())).append(',')
                            .append(fields(last.trailingHeaders()));
                    messages.add(current.toString());
                    current = null;
                }
            } finally {
                ReferenceCountUtil.release(o);
            }
        }
        if (reason != null) {
            return "R " + reason;
        }
        if (current != null) {
            return "R input ended inside a message";
        }
        if (messages.isEmpty()) {
            return "R no message";
        }
        return "A " + String.join(" ", messages) + (switched ? " ^" : "");
    }

    private static String drainAndReject(EmbeddedChannel channel, String reason) {
        try {
            channel.finishAndReleaseAll();
        } catch (RuntimeException again) {
            // the same failure, reported once more by the close
        }
        return "R " + reason.replace('\n', ' ');
    }

    /** Names lower-cased (they are case-insensitive), values byte for byte (Latin-1 chars are bytes). */
    static String fields(HttpHeaders headers) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < headers.size(); i++) {
            if (i > 0) {
                s.append('+');
            }
            s.append(hex(headers.nameAt(i).toString().toLowerCase(java.util.Locale.ROOT))).append('=').append(hex(headers.valueAt(i)));
        }
        return s.toString();
    }

    private static String hex(CharSequence latin1) {
        byte[] b = new byte[latin1.length()];
        for (int i = 0; i < b.length; i++) {
            char c = latin1.charAt(i);
            if (c > 0xff) {
                throw new IllegalStateException("not a byte: " + (int) c + " in " + latin1);
            }
            b[i] = (byte) c;
        }
        return HEX.formatHex(b);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
