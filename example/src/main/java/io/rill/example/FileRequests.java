package io.rill.example;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

import io.rill.handler.codec.http.QueryStringDecoder;

/**
 * The decisions of {@link HttpFileServer} that need no channel: which file a request target names
 * (safely), which byte range a {@code Range} header asks for, and what a file's type is.
 */
final class FileRequests {

    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"), Map.entry("htm", "text/html; charset=utf-8"),
            Map.entry("txt", "text/plain; charset=utf-8"), Map.entry("md", "text/plain; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"), Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("json", "application/json"), Map.entry("xml", "application/xml"),
            Map.entry("svg", "image/svg+xml"), Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"), Map.entry("gif", "image/gif"), Map.entry("webp", "image/webp"),
            Map.entry("ico", "image/x-icon"), Map.entry("pdf", "application/pdf"), Map.entry("zip", "application/zip"),
            Map.entry("gz", "application/gzip"), Map.entry("wasm", "application/wasm"), Map.entry("mp4", "video/mp4"));

    private FileRequests() {
    }

    /** Why a target was refused: the status to answer with. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        Refused(int status, String why) {
            super(why, null, false, false);
            this.status = status;
        }
    }

    /**
     * The file or directory {@code target} names under {@code root} (a real path). Refuses, with
     * 400, targets that are not origin-form or have malformed escapes, NUL or backslashes; with 404
     * anything that escapes the root: {@code ..} segments (decoded ones too: {@code %2e%2e}),
     * dot-files, and symbolic links that lead outside. 404 rather than 403, so the answer does not
     * tell what exists outside.
     */
    static Path resolve(Path root, String target) throws Refused, IOException {
        if (!target.startsWith("/")) {
            throw new Refused(400, "not an origin-form target: " + target);
        }
        String path;
        try {
            path = new QueryStringDecoder(target).path();
        } catch (IllegalArgumentException e) {
            throw new Refused(400, e.getMessage());
        }
        if (path.indexOf('\0') >= 0 || path.indexOf('\\') >= 0) {
            throw new Refused(400, "NUL or backslash in path");
        }
        Path file = root;
        for (String segment : path.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            if (segment.startsWith(".")) {
                throw new Refused(404, "dot segment or dot-file: " + segment); // "..", ".", ".git"...
            }
            file = file.resolve(segment);
        }
        if (!file.normalize().startsWith(root) || !Files.exists(file)) {
            throw new Refused(404, "no such file");
        }
        Path real = file.toRealPath(); // follows symbolic links: where they lead must still be inside
        if (!real.startsWith(root)) {
            throw new Refused(404, "a link out of the root");
        }
        return real;
    }

    /**
     * The range {@code [start, end]} (inclusive) a {@code Range} value asks for in a file of
     * {@code length} bytes: null to send the whole file (no header, a syntax we ignore, several
     * ranges: RFC 9110 §14.2 lets a server ignore Range), {@code {-1, -1}} if unsatisfiable (416).
     */
    static long[] range(String header, long length) {
        if (header == null || !header.regionMatches(true, 0, "bytes=", 0, 6) || header.indexOf(',') >= 0) {
            return null;
        }
        String spec = header.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        String first = spec.substring(0, dash).trim();
        String last = spec.substring(dash + 1).trim();
        if (!first.matches("\\d{0,18}") || !last.matches("\\d{0,18}") || first.isEmpty() && last.isEmpty()) {
            return null;
        }
        long start;
        long end;
        if (first.isEmpty()) { // suffix: the last N bytes
            long n = Long.parseLong(last);
            if (n == 0) {
                return new long[] {-1, -1};
            }
            start = Math.max(0, length - n);
            end = length - 1;
        } else {
            start = Long.parseLong(first);
            end = last.isEmpty() ? length - 1 : Math.min(Long.parseLong(last), length - 1);
            if (!last.isEmpty() && Long.parseLong(last) < start) {
                return null; // invalid: ignored, §14.1.1
            }
        }
        if (start >= length || length == 0) {
            return new long[] {-1, -1};
        }
        return new long[] {start, end};
    }

    static String contentType(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return TYPES.getOrDefault(ext, "application/octet-stream");
    }

    /** Text for HTML: {@code & < > " '} escaped. */
    static String escapeHtml(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
