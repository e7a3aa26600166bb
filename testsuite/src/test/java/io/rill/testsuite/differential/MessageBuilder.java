package io.rill.testsuite.differential;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Builds well-formed HTTP/1.1 messages (RFC 9112) of many shapes from a random stream: methods and
 * target forms, header names in any case, values with inner whitespace, obs-text and optional
 * whitespace around them, empty values, every body framing (none, Content-Length, chunked with
 * extensions and trailers, until close for responses), interim responses and pipelined pairs.
 * Everything it builds is valid, so any parser that refuses it before mutation is suspect.
 */
final class MessageBuilder {

    private static final String[] METHODS = {
        "GET", "GET", "GET", "POST", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE", "PURGE", "PROPFIND", "FROB",
    };
    private static final String[] TARGETS = {
        "/", "/index.html", "/a/b/c?x=1&y=2", "/search?q=a%20b&lang=en", "/%7Euser/file.txt", "/p;params?x#",
        "/a/../b/./c", "/x?list=a,b,c&e=", "/api/v1/items/12345?fields=name,price", "/!$&'()*+,;=:@-._~",
        "http://example.com/x?y", "http://example.com:8080/", "/{json}|^`", "/\"quoted\"",
    };
    private static final String[] NAMES = {
        "Accept", "accept-encoding", "User-Agent", "X-Request-Id", "cookie", "Cache-Control", "X-Forwarded-For",
        "If-None-Match", "Content-Type", "X_Underscore", "x-a.b", "X-!#$%&'*+-.^_`|~", "Authorization", "Via",
        "Connection", "Keep-Alive", "Upgrade-Insecure-Requests", "Accept-Language", "Referer", "X-Empty",
    };
    private static final String[] VALUES = {
        "*/*", "gzip, deflate, br", "Mozilla/5.0 (X11; Linux x86_64)", "a=b; c=d", "no-cache", "1.2.3.4, 5.6.7.8",
        "\"etag-1\"", "text/plain; charset=utf-8", "", "value\twith\ttabs", "x  y   z", "Basic dXNlcjpwYXNz",
        "1.1 proxy", "keep-alive", "timeout=5", "1", "en-US,en;q=0.9", "http://example.com/p?q=1", "\"quoted, comma\"",
        "~!@#$%^&*()_+{}|:<>?", "a,b,,c", "=", ";",
    };
    private static final int[] STATUSES = {200, 200, 200, 201, 204, 206, 301, 302, 304, 400, 404, 418, 500, 503, 599};
    private static final String[] REASONS = {"OK", "Whatever", "", "Not Found", "Some  reason\twith tab", "\u00e9t\u00e9"};

    private final SplittableRandom random;

    MessageBuilder(SplittableRandom random) {
        this.random = random;
    }

    /** One request, or two pipelined ones, possibly after empty lines (RFC 9112 §2.2). */
    byte[] requestOrPipelinedPair() {
        Text t = new Text();
        if (random.nextInt(20) == 0) {
            t.add("\r\n");
        }
        boolean pair = random.nextInt(5) == 0;
        // The first of a pair is HTTP/1.1 and never asks to close, so every parser reads on (RFC 9112 §9.3).
        request(t, pair);
        if (pair) {
            if (random.nextInt(4) == 0) {
                t.add("\r\n");
            }
            request(t, false);
        }
        return t.bytes();
    }

    private void request(Text t, boolean persistent) {
        String method = pick(METHODS);
        boolean http10 = !persistent && random.nextInt(12) == 0;
        String target = method.equals("OPTIONS") && random.nextInt(3) == 0 ? "*" : pick(TARGETS);
        t.add(method).add(" ").add(target).add(http10 ? " HTTP/1.0\r\n" : " HTTP/1.1\r\n");
        int fields = random.nextInt(8) == 0 ? 20 + random.nextInt(20) : random.nextInt(7);
        int hostAt = random.nextInt(fields + 1);
        for (int i = 0; i <= fields; i++) {
            if (i == hostAt) {
                if (!http10 || random.nextBoolean()) {
                    field(t, random.nextInt(4) == 0 ? "host" : "Host", random.nextInt(3) == 0 ? "example.com:8080" : "example.com");
                }
            } else {
                String name = pick(NAMES);
                field(t, name, value());
            }
        }
        body(t, !http10, method.equals("GET") || method.equals("HEAD") ? 4 : 2, false);
    }

    /** The method of the request a response answers: GET mostly, HEAD and POST sometimes. */
    String requestMethodForResponse() {
        int r = random.nextInt(10);
        return r < 6 ? "GET" : r < 8 ? "HEAD" : "POST";
    }

    /** A final response to {@code method}, sometimes after interim (1xx) responses. */
    byte[] response(String method) {
        Text t = new Text();
        int interim = random.nextInt(6) == 0 ? 1 + random.nextInt(2) : 0;
        for (int i = 0; i < interim; i++) {
            t.add(random.nextBoolean() ? "HTTP/1.1 100 Continue\r\n" : "HTTP/1.1 103 Early Hints\r\n");
            if (random.nextBoolean()) {
                field(t, "Link", "</style.css>; rel=preload");
            }
            t.add("\r\n");
        }
        boolean http10 = random.nextInt(12) == 0;
        int status = STATUSES[random.nextInt(STATUSES.length)];
        String reason = pick(REASONS);
        t.add(http10 ? "HTTP/1.0 " : "HTTP/1.1 ").add(Integer.toString(status));
        if (!reason.isEmpty() || random.nextBoolean()) {
            t.add(" ").latin1(reason);
        }
        t.add("\r\n");
        int fields = random.nextInt(6);
        for (int i = 0; i < fields; i++) {
            field(t, pick(NAMES), value());
        }
        boolean noBody = status == 204 || status == 304 || method.equals("HEAD");
        if (noBody) {
            // A length that describes the body the answer to GET would have had (RFC 9110 §8.6); never chunked on 204.
            if (status != 204 && random.nextInt(3) == 0) {
                field(t, "Content-Length", Integer.toString(random.nextInt(100)));
            }
            t.add("\r\n");
        } else {
            body(t, !http10, random.nextInt(4) == 0 ? 0 : 1, true);
        }
        return t.bytes();
    }

    /** Framing fields, the end of the head and the body; {@code noneWeight} makes "no body" likelier. */
    private void body(Text t, boolean chunkedAllowed, int noneWeight, boolean response) {
        int kind = random.nextInt(noneWeight + 3);
        if (kind >= 3) {
            t.add("\r\n");
        } else if (kind == 0 || !chunkedAllowed) {
            byte[] data = data();
            field(t, random.nextBoolean() ? "Content-Length" : "content-length", Integer.toString(data.length));
            t.add("\r\n").add(data);
        } else if (kind == 1) {
            field(t, "Transfer-Encoding", random.nextInt(5) == 0 ? "Chunked" : "chunked");
            t.add("\r\n");
            chunks(t);
        } else {
            // No framing field: a request without a body, a response that runs to the close.
            t.add("\r\n");
            if (response) {
                t.add(data());
            }
        }
    }

    private void chunks(Text t) {
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            byte[] data = data();
            if (data.length == 0) {
                continue;
            }
            String size = Integer.toHexString(data.length);
            t.add(random.nextInt(4) == 0 ? size.toUpperCase() : size);
            extensions(t);
            t.add("\r\n").add(data).add("\r\n");
        }
        t.add(random.nextInt(6) == 0 ? "000" : "0");
        extensions(t);
        t.add("\r\n");
        int trailers = random.nextInt(4) == 0 ? 1 + random.nextInt(2) : 0;
        for (int i = 0; i < trailers; i++) {
            field(t, random.nextBoolean() ? "X-Checksum" : "Server-Timing", value());
        }
        t.add("\r\n");
    }

    /** Chunk extensions (RFC 9112 §7.1.1): tokens, token values, quoted values with escapes. */
    private void extensions(Text t) {
        switch (random.nextInt(8)) {
            case 0 -> t.add(";ext");
            case 1 -> t.add(";name=value");
            case 2 -> t.add(";q=\"quoted value\"");
            case 3 -> t.add(";a=1;b=\"x\\\"y\"");
            default -> { }
        }
    }

    private byte[] data() {
        int r = random.nextInt(10);
        int length = r < 2 ? 0 : r < 8 ? 1 + random.nextInt(40) : 100 + random.nextInt(3000);
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (random.nextInt(8) == 0 ? random.nextInt(256) : 'a' + random.nextInt(26));
        }
        return data;
    }

    private String value() {
        String v = pick(VALUES);
        if (random.nextInt(10) == 0 && !v.isEmpty()) {
            v = v + "\u00a0\u00ff" + v; // obs-text inside a value (RFC 9110 §5.5)
        }
        return v;
    }

    /** A field line with optional whitespace around the value, as RFC 9112 §5.1 allows. */
    private void field(Text t, String name, String value) {
        t.add(name).add(":");
        t.add(ows());
        t.latin1(value);
        if (!value.isEmpty()) {
            t.add(ows());
        }
        t.add("\r\n");
    }

    private String ows() {
        return switch (random.nextInt(8)) {
            case 0 -> "";
            case 1 -> "\t";
            case 2 -> "  ";
            case 3 -> " \t ";
            default -> " ";
        };
    }

    private String pick(String[] from) {
        return from[random.nextInt(from.length)];
    }

    /** The bytes of a message; text is ASCII or Latin-1 (obs-text). */
    private static final class Text {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

        Text add(String ascii) {
            out.writeBytes(ascii.getBytes(StandardCharsets.US_ASCII));
            return this;
        }

        Text latin1(String s) {
            out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
            return this;
        }

        Text add(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
