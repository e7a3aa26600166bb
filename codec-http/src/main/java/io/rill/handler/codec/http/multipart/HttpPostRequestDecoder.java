package io.rill.handler.codec.http.multipart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import io.rill.buffer.ByteBuf;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.LastHttpContent;

/**
 * Decodes the body of a form POST, {@code application/x-www-form-urlencoded} or
 * {@code multipart/form-data}, into {@link Attribute}s and {@link FileUpload}s.
 * <pre>{@code
 * HttpPostRequestDecoder form = new HttpPostRequestDecoder(request);   // the head, or a FullHttpRequest
 * form.offer(content);                                                  // each HttpContent, as it comes
 * ...
 * if (form.isComplete()) { form.bodyHttpDatas() ...; form.destroy(); }
 * }</pre>
 *
 * <p>Decoding is incremental and bounded by an {@link HttpPostDecoderConfig}: at most
 * {@code maxFields} fields or parts, each field at most {@code maxBufferedBytes}, files spilled to
 * private temporary files past {@code memoryThreshold}. A body over a limit, or malformed, fails
 * with an {@link HttpPostRequestDecoderException} (its {@link HttpPostRequestDecoderException#status()
 * status} is the answer to send) as soon as the offending byte is offered, whatever the body's
 * size: {@code a&a&a&...} fails at field 129 and a 100 MB field without {@code &} at its
 * 64 KiB-th byte (docs/security-cases.md, case H1-07). On failure the uploads made so far are
 * deleted.
 *
 * <p>The decoder does not release what it is offered; the caller still owns it. Not thread-safe.
 */
public class HttpPostRequestDecoder {

    /** The body is copied into the parser in pieces of this size, so no offer makes it buffer more. */
    private static final int SLICE = 8192;

    private final List<HttpData> datas = new ArrayList<>();
    private final UploadDirectory uploads;
    private final BodyParser parser;
    private final boolean multipart;
    private final byte[] slice = new byte[SLICE];
    private boolean complete;
    private boolean failed;

    /**
     * A decoder for the body of {@code request} with the default limits.
     *
     * @param request the request head; a full request's body is decoded at once
     * @throws HttpPostRequestDecoderException if the Content-Type is not a form type, or the body of a full
     *                                         request fails
     */
    public HttpPostRequestDecoder(HttpRequest request) {
        this(request, HttpPostDecoderConfig.DEFAULT);
    }

    /**
     * A decoder for the body of {@code request} with the limits of {@code config}.
     *
     * @param request the request head; a full request's body is decoded at once
     * @param config  the limits
     * @throws HttpPostRequestDecoderException if the Content-Type is neither form type (then
     *                                         {@link HttpPostRequestDecoderException.Kind#MALFORMED}),
     *                                         or the body of a full request fails
     */
    public HttpPostRequestDecoder(HttpRequest request, HttpPostDecoderConfig config) {
        String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        String type = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        this.uploads = new UploadDirectory(config.uploadParent());
        if (type.equals("multipart/form-data")) {
            multipart = true;
            parser = new MultipartParser(MultipartParser.boundary(contentType), config, uploads, datas);
        } else if (type.equals("application/x-www-form-urlencoded")) {
            multipart = false;
            parser = new FormParser(charset(contentType), config, datas);
        } else {
            throw MultipartParser.malformed("not a form body: Content-Type \""
                    + (contentType == null ? "" : contentType.replaceAll("\\p{Cntrl}", "?")) + '"');
        }
        if (request instanceof FullHttpRequest full) {
            offer(full);
        }
    }

    /**
     * Whether {@code request} has a Content-Type this decoder reads.
     *
     * @param request a request head
     * @return true for {@code multipart/form-data} and {@code application/x-www-form-urlencoded}
     */
    public static boolean isForm(HttpRequest request) {
        String ct = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (ct == null) {
            return false;
        }
        String type = ct.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return type.equals("multipart/form-data") || type.equals("application/x-www-form-urlencoded");
    }

    private static Charset charset(String contentType) {
        String cs = PartHeaders.param(contentType, "charset");
        if (cs == null) {
            return StandardCharsets.UTF_8;
        }
        try {
            return Charset.forName(cs);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw MultipartParser.malformed("unknown charset \"" + cs.replaceAll("\\p{Cntrl}", "?") + '"');
        }
    }

    /**
     * Whether the body is {@code multipart/form-data}, rather than urlencoded.
     *
     * @return true for multipart
     */
    public boolean isMultipart() {
        return multipart;
    }

    /**
     * Feeds a piece of the body; a {@link LastHttpContent} ends it. Does not release {@code content}.
     *
     * @param content a piece of the body; still owned by the caller
     * @return this decoder
     * @throws HttpPostRequestDecoderException if the body is malformed or over a limit
     * @throws IllegalStateException if the body already failed or is complete
     */
    public HttpPostRequestDecoder offer(HttpContent content) {
        if (failed || complete) {
            throw new IllegalStateException(failed ? "the body already failed to decode" : "the body is complete");
        }
        try {
            ByteBuf buf = content.content();
            for (int i = buf.readerIndex(), end = buf.writerIndex(); i < end; i += SLICE) {
                int n = Math.min(SLICE, end - i);
                buf.getBytes(i, slice, 0, n);
                parser.feed(slice, 0, n);
            }
            if (content instanceof LastHttpContent) {
                parser.end();
                complete = true;
            }
        } catch (IOException e) {
            failed = true;
            destroy();
            throw new UncheckedIOException("could not store an upload", e);
        } catch (RuntimeException e) {
            failed = true;
            destroy();
            throw e;
        }
        return this;
    }

    /**
     * Whether the whole body was offered and decoded.
     *
     * @return true once the last content was decoded
     */
    public boolean isComplete() {
        return complete;
    }

    /**
     * The fields and files decoded so far, in body order (a file is listed from its first byte).
     *
     * @return an unmodifiable view of the items
     */
    public List<HttpData> bodyHttpDatas() {
        return Collections.unmodifiableList(datas);
    }

    /**
     * The first item named {@code name}, or null.
     *
     * @param name the field name
     * @return the item, or null
     */
    public HttpData bodyHttpData(String name) {
        for (HttpData d : datas) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        return null;
    }

    /** Deletes every upload's temporary file and the private directory. Call when done with the request. */
    public void destroy() {
        for (HttpData d : datas) {
            if (d instanceof FileUpload f) {
                f.delete();
            }
        }
        uploads.delete();
    }
}
