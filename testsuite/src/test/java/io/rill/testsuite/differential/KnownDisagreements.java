package io.rill.testsuite.differential;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The ways llhttp and h11 depart from Rill on input that Rill reads correctly, each with the RFC
 * section that says why Rill's reading stands. An entry that Rill accepts is explained when every
 * parser that does not read it the way Rill does shows one of its known departures here.
 * {@code HttpDifferentialTest} pins one input of each departure, through all three parsers.
 *
 * <p>A departure is recognised by the parser's own verdict (its error code or what it read) and by
 * the input having the shape that causes it; neither alone is enough.
 */
final class KnownDisagreements {

    /** One known departure of one parser. */
    record Quirk(String parser, String name, String why, Predicate<Case> matches) {
    }

    /** What a departure is recognised by: the input, Rill's verdict and the other parser's. */
    record Case(HttpCorpus.Entry entry, String rill, String other) {
        String text() {
            return new String(entry.bytes(), StandardCharsets.ISO_8859_1);
        }

        boolean otherRejects(String reason) {
            return other.startsWith("R ") && other.contains(reason);
        }
    }

    static final List<Quirk> QUIRKS = List.of(
            new Quirk("llhttp", "extension method",
                    "RFC 9110 §9.1 and §16.1: a method is any token and the set is extensible; llhttp knows a fixed list",
                    c -> c.otherRejects("HPE_INVALID_METHOD") && methodsAreTokens(c.rill)),
            new Quirk("llhttp", "whitespace around a Transfer-Encoding value",
                    "RFC 9112 §5.1: OWS before and after a field value is not part of it; llhttp's strict mode refuses it"
                            + " after 'chunked'",
                    c -> c.otherRejects("HPE_INVALID_TRANSFER_ENCODING") && rawValues(c.text(), "transfer-encoding").stream()
                            .anyMatch(KnownDisagreements::hasTrailingOws)),
            new Quirk("llhttp", "whitespace around a Content-Length value",
                    "RFC 9112 §5.1: OWS before and after a field value is not part of it; llhttp's strict mode refuses a"
                            + " tab before or any whitespace after the digits",
                    c -> c.otherRejects("HPE_INVALID_CONTENT_LENGTH") && rawValues(c.text(), "content-length").stream()
                            .anyMatch(v -> hasTrailingOws(v) || v.startsWith("\t") || v.startsWith(" \t") || v.startsWith("  "))),
            new Quirk("llhttp", "Upgrade taken",
                    "RFC 9110 §7.8: a server may ignore Upgrade and keep HTTP/1.1; Rill's decoder does (docs/security-cases.md,"
                            + " case S-13), llhttp stops at the request that asks",
                    c -> c.other.endsWith(" ^") && Verdicts.sameFirstHead(c.rill, c.other)),
            new Quirk("llhttp", "HTTP/1.x above 1.1",
                    "RFC 9110 §6.2 and RFC 9112 §2.3: a 1.x version above 1.1 is valid and is read as 1.1; llhttp's strict"
                            + " mode knows only 1.0 and 1.1",
                    c -> c.otherRejects("HPE_INVALID_VERSION") && Verdicts.messages(c.rill).stream()
                            .anyMatch(m -> m.version().matches("1\\.[2-9]"))),
            new Quirk("llhttp", "whitespace in a chunk extension",
                    "RFC 9112 §7.1.1: chunk-ext allows BWS before ';' and around '='; llhttp's strict mode refuses it",
                    c -> (c.otherRejects("HPE_STRICT") && c.other.contains("chunk extension")
                            || c.otherRejects("HPE_INVALID_CHUNK_SIZE")) && bwsInAChunkExtension(c.text())),
            new Quirk("h11", "whitespace in a chunk extension",
                    "RFC 9112 §7.1.1: chunk-ext allows BWS before ';' and around '='; h11 refuses it before ';'",
                    c -> c.otherRejects("illegal chunk header") && bwsInAChunkExtension(c.text())),
            new Quirk("llhttp", "empty element in the Transfer-Encoding list",
                    "RFC 9110 §5.6.1.2: a recipient must parse and ignore a reasonable number of empty list elements, so"
                            + " 'chunked ,' is chunked; llhttp refuses it",
                    c -> c.otherRejects("HPE_INVALID_TRANSFER_ENCODING") && emptyListElement(c.text(), "transfer-encoding")),
            new Quirk("h11", "empty element in the Transfer-Encoding list",
                    "RFC 9110 §5.6.1.2, as for llhttp: h11 refuses 'chunked ,'",
                    c -> c.otherRejects("Only Transfer-Encoding: chunked is supported")
                            && emptyListElement(c.text(), "transfer-encoding")),
            new Quirk("llhttp", "absolute URI its URL parser refuses",
                    "RFC 9112 §3.2.2 and RFC 3986 §3: Rill takes an absolute-form target made of URI characters after a"
                            + " scheme and leaves the URI grammar to the application, as h11 does; llhttp's URL parser"
                            + " refuses some valid ones ('h0ttp://a', 'http:;//a', 'http:a/b')",
                    c -> c.otherRejects("HPE_INVALID_URL") && Verdicts.messages(c.rill).stream()
                            .anyMatch(m -> !m.target().startsWith("/") && !m.target().equals("*"))),
            new Quirk("llhttp", "Connection: close in the trailer section",
                    "RFC 9110 §6.5.1 and §7.6.1: Connection manages the connection from the header section; Rill (like"
                            + " h11) does not act on it as a trailer and reads the next request, llhttp closes",
                    c -> c.otherRejects("HPE_CLOSED_CONNECTION") && c.text()
                            .matches("(?is).*\r\n0+(;[^\r\n]*)?\r\n([^\r\n]+\r\n)*connection:[ \t]*close[ \t]*\r\n.*")),
            new Quirk("h11", "half an empty line at the close",
                    "RFC 9112 §2.2: a lone CR after the last message cannot start one; Rill and llhttp ignore it when the"
                            + " connection closes, h11 calls it an illegal start line",
                    c -> (c.otherRejects("illegal request line") || c.otherRejects("illegal status line"))
                            && c.text().endsWith("\r\n\r")),
            new Quirk("llhttp", "a message after one that closes",
                    "RFC 9112 §9.6: a server must not process requests after one with 'Connection: close' (or HTTP/1.0"
                            + " without keep-alive), and a client reads nothing after a response that closes; Rill's"
                            + " decoders frame what follows and HttpServerKeepAliveHandler drops it, llhttp refuses it",
                    c -> c.otherRejects("HPE_CLOSED_CONNECTION") && Verdicts.closesBeforeTheLast(c.rill)),
            new Quirk("llhttp", "chunked with whitespace or an empty list element, in a response",
                    "RFC 9112 §5.1 and RFC 9110 §5.6.1.2: OWS is not part of the value and empty list elements are"
                            + " ignored, so 'chunked\t' and 'chunked ,' are chunked; llhttp reads such a response's body"
                            + " to the close instead, chunk lines included",
                    c -> !c.entry().requestMethod().equals("-") && c.other.startsWith("A ")
                            && Verdicts.sameExceptBodies(c.rill, c.other)
                            && (rawValues(c.text(), "transfer-encoding").stream().anyMatch(KnownDisagreements::hasTrailingOws)
                                    || emptyListElement(c.text(), "transfer-encoding"))),
            new Quirk("llhttp", "a body on an unregistered 1xx",
                    "RFC 9110 §15.2: a 1xx response ends with its header section and has no content; llhttp reads a"
                            + " body by Content-Length or Transfer-Encoding on 1xx codes it does not know (104 to 199)",
                    c -> !c.entry().requestMethod().equals("-") && Verdicts.messages(c.rill).stream()
                            .anyMatch(m -> m.status() >= 104 && m.status() < 200
                                    && !(m.values("content-length").isEmpty() && m.values("transfer-encoding").isEmpty()))),
            new Quirk("h11", "a message after one that closes",
                    "RFC 9112 §9.6, as for llhttp: h11 reads nothing after a message that closes the connection, not"
                            + " even the empty line Rill skips (§2.2)",
                    c -> c.otherRejects("after the last message that h11 will not read") && Verdicts.anyCloses(c.rill)),
            new Quirk("h11", "HTTP/1.0 keep-alive",
                    "RFC 9112 §9.3: an HTTP/1.0 message with the keep-alive connection option keeps the connection"
                            + " open; h11 closes after every HTTP/1.0 message and reads nothing more",
                    c -> c.otherRejects("after the last message that h11 will not read") && Verdicts.messages(c.rill)
                            .stream().anyMatch(m -> m.version().equals("1.0") && m.persistent())),
            new Quirk("h11", "transfer codings other than chunked in a response",
                    "RFC 9112 §6.3: a response whose final transfer coding is not chunked runs to the close, and 1xx,"
                            + " 204 and 304 responses and answers to HEAD have no body whatever their framing fields say;"
                            + " h11 refuses every coding but chunked",
                    c -> !c.entry().requestMethod().equals("-")
                            && (c.otherRejects("Only Transfer-Encoding: chunked is supported")
                                    || c.otherRejects("multiple Transfer-Encoding headers"))
                            && !rawValues(c.text(), "transfer-encoding").isEmpty()),
            new Quirk("h11", "empty line before a status line",
                    "RFC 9112 §2.2 asks servers to skip empty lines before a request line; Rill's client (like llhttp)"
                            + " skips them before a status line too: an empty line cannot start a message, so nothing is"
                            + " misread. h11 refuses them",
                    c -> c.otherRejects("no response line received") && c.text().contains("\r\n")),
            new Quirk("h11", "closed after interim responses",
                    "RFC 9110 §15.2: 1xx responses are complete messages; a close before the final response leaves the"
                            + " request unanswered, which the client sees as the close, not as a framing error",
                    c -> c.otherRejects("can't handle event type ConnectionClosed")
                            && Verdicts.messages(c.rill).stream().allMatch(m -> m.status() >= 100 && m.status() < 200)),
            new Quirk("h11", "empty line before a request line",
                    "RFC 9112 §2.2: a server should ignore at least one empty line received before a request-line; h11"
                            + " refuses any",
                    // h11 says this only when the line where it expects a request line is empty.
                    c -> c.otherRejects("no request line received") && c.text().contains("\r\n")),
            new Quirk("h11", "Transfer-Encoding value lower-cased",
                    "RFC 9112 §7: transfer-coding names are case-insensitive, so 'Chunked' is valid; h11 reports the value"
                            + " lower-cased, Rill byte for byte",
                    c -> c.other.startsWith("A ") && lowerCaseTransferEncoding(c.rill).equals(c.other)));

    private KnownDisagreements() {
    }

    /**
     * The names of the departures that explain an entry Rill accepts, or null if some parser that
     * reads it otherwise shows no known departure (or Rill does not accept it).
     */
    static String explain(DifferentialReport.Category c, HttpCorpus.Entry entry, String rill, String llhttp, String h11) {
        if (!rill.startsWith("A ")) {
            return null;
        }
        List<String> names = new ArrayList<>(2);
        for (String[] other : new String[][] {{"llhttp", llhttp}, {"h11", h11}}) {
            if (other[1].equals(rill)) {
                continue;
            }
            Quirk q = quirk(other[0], new Case(entry, rill, other[1]));
            if (q == null) {
                return null;
            }
            names.add(q.parser() + ": " + q.name());
        }
        return names.isEmpty() ? null : String.join(" + ", names);
    }

    static Quirk quirk(String parser, Case c) {
        for (Quirk q : QUIRKS) {
            if (q.parser().equals(parser) && q.matches().test(c)) {
                return q;
            }
        }
        return null;
    }

    /** The raw values (after the colon, whitespace kept) of every field line named {@code name}. */
    static List<String> rawValues(String message, String name) {
        List<String> values = new ArrayList<>();
        for (String line : message.split("\r\n", -1)) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).toLowerCase(Locale.ROOT).equals(name)) {
                values.add(line.substring(colon + 1));
            }
        }
        return values;
    }

    /** A chunk line with whitespace before ';' or around '=' of an extension. */
    private static boolean bwsInAChunkExtension(String message) {
        return message.matches("(?s).*\r\n[0-9A-Fa-f]+[^\r\n]*([ \t][;=]|[;=][ \t])[^\r\n]*\r\n.*");
    }

    /** A field named {@code name} whose comma-separated list has an empty element. */
    private static boolean emptyListElement(String message, String name) {
        return rawValues(message, name).stream()
                .anyMatch(v -> java.util.Arrays.stream(v.split(",", -1)).anyMatch(e -> e.strip().isEmpty()));
    }

    private static boolean hasTrailingOws(String v) {
        return v.endsWith(" ") || v.endsWith("\t");
    }

    /** Every method in a verdict is made of token characters (RFC 9110 §5.6.2). */
    private static boolean methodsAreTokens(String verdict) {
        return Verdicts.messages(verdict).stream().allMatch(m -> m.method().chars()
                .allMatch(ch -> ch < 128 && (Character.isLetterOrDigit(ch) || "!#$%&'*+-.^_`|~".indexOf(ch) >= 0)));
    }

    /** A verdict with the values of Transfer-Encoding fields lower-cased, as h11 reports them. */
    private static String lowerCaseTransferEncoding(String verdict) {
        String te = java.util.HexFormat.of().formatHex("transfer-encoding".getBytes(StandardCharsets.US_ASCII)) + "=";
        StringBuilder out = new StringBuilder(verdict.length());
        int from = 0;
        int at;
        while ((at = verdict.indexOf(te, from)) >= 0) {
            int valueAt = at + te.length();
            int end = valueAt;
            while (end < verdict.length() && Character.digit(verdict.charAt(end), 16) >= 0) {
                end++;
            }
            byte[] value = java.util.HexFormat.of().parseHex(verdict.substring(valueAt, end));
            String lower = new String(value, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
            out.append(verdict, from, valueAt).append(java.util.HexFormat.of().formatHex(lower.getBytes(StandardCharsets.ISO_8859_1)));
            from = end;
        }
        return out.append(verdict.substring(from)).toString();
    }
}
