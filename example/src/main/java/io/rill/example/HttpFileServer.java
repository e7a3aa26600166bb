package io.rill.example;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.DefaultFileRegion;
import io.rill.handler.codec.http.DateFormatter;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.DefaultHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpChunkedInput;
import io.rill.handler.codec.http.HttpContentCompressor;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpDecoderConfig;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http.LastHttpContent;
import io.rill.handler.codec.http.QueryStringEncoder;
import io.rill.handler.stream.ChunkedNioFile;
import io.rill.handler.stream.ChunkedWriteHandler;
import io.rill.util.InternalLogger;

/**
 * Serves the files under {@code --dir} (default: the working directory): GET and HEAD, a listing
 * page for directories, {@code Last-Modified}/{@code If-Modified-Since} (304), one {@code Range}
 * per request (206, or 416 when it is past the end), and nothing outside the directory (see
 * {@link FileRequests#resolve}). Bodies go out zero-copy as a {@link DefaultFileRegion}; with
 * {@code --chunked} (or where a region cannot be used, e.g. under TLS) as an
 * {@link HttpChunkedInput} read in 8 KiB pieces. With {@code --compress} an
 * {@link HttpContentCompressor} answers by {@code Accept-Encoding} with zstd, br or gzip (its
 * default preference: zstd, br, gzip, deflate); bodies are then always read in chunks, since a
 * compressor cannot work on a zero-copy region, and ranges (206) go out uncompressed. Try
 * {@code curl -i http://127.0.0.1:8080/} or {@code curl --compressed -v http://127.0.0.1:8080/FILE}.
 */
final class HttpFileServer implements Example {

    @Override
    public String name() {
        return "http-file-server";
    }

    @Override
    public String description() {
        return "serves a directory over HTTP with ranges and 304s (try: curl -i http://HOST:PORT/)";
    }

    private static final ExampleOption DIR = ExampleOption.text("dir", "PATH", ".",
            "the directory to serve; one that is missing or unreadable stops the start (exit 2)");
    private static final ExampleOption CHUNKED = ExampleOption.flag("chunked",
            "send files in 8 KiB chunks read from the file instead of zero-copy regions");
    private static final ExampleOption COMPRESS = ExampleOption.flag("compress",
            "compress bodies of 1 KiB or more with zstd, br or gzip as Accept-Encoding allows (implies --chunked)");

    @Override
    public List<ExampleOption> options() {
        return List.of(DIR, CHUNKED, COMPRESS, HttpTimeoutOptions.HEADER_TIMEOUT, HttpTimeoutOptions.BODY_TIMEOUT,
                HttpTimeoutOptions.IDLE_TIMEOUT);
    }

    @Override
    public List<String> limits() {
        return HttpTimeoutOptions.limits("request body: 8 KiB (413 beyond); nothing outside --dir is served;"
                + " a file is read only as fast as the peer takes it");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        Path root = servedDirectory(options.text(DIR));
        ServerRunner.run(options, name(), initializer(root, options.flag(CHUNKED), options.flag(COMPRESS),
                HttpTimeoutOptions.from(options)));
    }

    /** {@code dir} resolved, or a usage error saying what is wrong with it in one line (exit 2). */
    private static Path servedDirectory(String dir) {
        Path path = Path.of(dir);
        if (!Files.exists(path)) {
            throw new ExampleOptions.UsageException("--dir " + dir + ": no such directory");
        }
        if (!Files.isDirectory(path)) {
            throw new ExampleOptions.UsageException("--dir " + dir + " is not a directory");
        }
        if (!Files.isReadable(path) || !Files.isExecutable(path)) {
            throw new ExampleOptions.UsageException("--dir " + dir + ": permission denied (cannot list or read it)");
        }
        try {
            return path.toRealPath();
        } catch (java.io.IOException e) {
            throw new ExampleOptions.UsageException("--dir " + dir + ": " + e.getMessage());
        }
    }

    /** The pipeline of one connection with the default time limits; shared with the tests. */
    static ChannelInitializer<Channel> initializer(Path root, boolean chunked) {
        return initializer(root, chunked, HttpServerTimeouts.DEFAULT);
    }

    static ChannelInitializer<Channel> initializer(Path root, boolean chunked, HttpServerTimeouts timeouts) {
        return initializer(root, chunked, false, timeouts);
    }

    /**
     * With {@code compress}, the compressor sits before the chunked writer, so that it sees the
     * file's pieces as {@code HttpContent} on their way out.
     */
    static ChannelInitializer<Channel> initializer(Path root, boolean chunked, boolean compress, HttpServerTimeouts timeouts) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(HttpDecoderConfig.DEFAULT,
                        HttpServerCodec.DEFAULT_MAX_PENDING_REQUESTS, timeouts), new HttpServerKeepAliveHandler(), new HttpObjectAggregator(8192));
                if (compress) {
                    ch.pipeline().addLast(new HttpContentCompressor());
                }
                ch.pipeline().addLast(new ChunkedWriteHandler(), new FileHandler(root, chunked || compress));
            }
        };
    }

    /** Answers one request at a time; a request's body (there should be none) is ignored. */
    static final class FileHandler implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(FileHandler.class);
        private final Path root;
        private final boolean chunked;

        FileHandler(Path root, boolean chunked) {
            this.root = root;
            this.chunked = chunked;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            FullHttpRequest request = (FullHttpRequest) msg;
            try {
                serve(ctx, request);
            } finally {
                request.release();
            }
        }

        private void serve(ChannelHandlerContext ctx, FullHttpRequest request) throws IOException {
            boolean head = request.method().equals(HttpMethod.HEAD);
            if (!head && !request.method().equals(HttpMethod.GET)) {
                FullHttpResponse r = text(HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET and HEAD\n");
                r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
                ctx.writeAndFlush(r);
                return;
            }
            Path file;
            try {
                file = FileRequests.resolve(root, request.uri());
            } catch (FileRequests.Refused e) {
                LOG.debug("Refused {}: {}", request.uri(), e.getMessage());
                HttpResponseStatus status = HttpResponseStatus.valueOf(e.status);
                ctx.writeAndFlush(text(status, status + "\n"));
                return;
            }
            if (Files.isDirectory(file)) {
                String path = request.uri().split("[?#]", 2)[0];
                if (!path.endsWith("/")) {
                    FullHttpResponse r = text(HttpResponseStatus.MOVED_PERMANENTLY, "");
                    r.headers().set(HttpHeaderNames.LOCATION, path + "/");
                    ctx.writeAndFlush(r);
                } else {
                    ctx.writeAndFlush(listing(file, path));
                }
                return;
            }
            sendFile(ctx, request.headers(), file, head);
        }

        private void sendFile(ChannelHandlerContext ctx, HttpHeaders requestHeaders, Path file, boolean head)
                throws IOException {
            long length = Files.size(file);
            long modified = Files.getLastModifiedTime(file).toMillis() / 1000 * 1000; // HTTP dates have seconds
            String lastModified = DateFormatter.format(modified);
            Long since = DateFormatter.parse(requestHeaders.get(HttpHeaderNames.IF_MODIFIED_SINCE));
            if (since != null && modified <= since) {
                FullHttpResponse r = new DefaultFullHttpResponse(io.rill.handler.codec.http.HttpVersion.HTTP_1_1,
                        HttpResponseStatus.NOT_MODIFIED);
                r.headers().set(HttpHeaderNames.LAST_MODIFIED, lastModified);
                ctx.writeAndFlush(r);
                return;
            }
            String ifRange = requestHeaders.get(HttpHeaderNames.IF_RANGE);
            long[] range = ifRange == null || ifRange.equals(lastModified)
                    ? FileRequests.range(requestHeaders.get(HttpHeaderNames.RANGE), length) : null;
            if (range != null && range[0] < 0) {
                FullHttpResponse r = text(HttpResponseStatus.RANGE_NOT_SATISFIABLE, "");
                r.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes */" + length);
                ctx.writeAndFlush(r);
                return;
            }
            long start = range == null ? 0 : range[0];
            long count = range == null ? length : range[1] - range[0] + 1;
            HttpResponse response = new DefaultHttpResponse(io.rill.handler.codec.http.HttpVersion.HTTP_1_1,
                    range == null ? HttpResponseStatus.OK : HttpResponseStatus.PARTIAL_CONTENT);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, FileRequests.contentType(file))
                    .set(HttpHeaderNames.CONTENT_LENGTH, Long.toString(count))
                    .set(HttpHeaderNames.LAST_MODIFIED, lastModified)
                    .set(HttpHeaderNames.ACCEPT_RANGES, "bytes");
            if (range != null) {
                response.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes " + range[0] + "-" + range[1] + "/" + length);
            }
            ctx.write(response);
            if (head) {
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            } else if (chunked) {
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                ctx.writeAndFlush(new HttpChunkedInput(new ChunkedNioFile(channel, start, count, 8192)));
            } else {
                ctx.write(new DefaultFileRegion(file, start, count));
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            }
        }

        /** An HTML page listing {@code dir}: names escaped for HTML, links percent-encoded. */
        private static FullHttpResponse listing(Path dir, String urlPath) throws IOException {
            List<String> names = new ArrayList<>();
            try (Stream<Path> entries = Files.list(dir)) {
                entries.forEach(p -> {
                    String n = p.getFileName().toString();
                    if (!n.startsWith(".")) {
                        names.add(Files.isDirectory(p) ? n + "/" : n);
                    }
                });
            }
            names.sort(null);
            StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Index of ")
                    .append(FileRequests.escapeHtml(urlPath)).append("</title></head><body>\n<h1>Index of ")
                    .append(FileRequests.escapeHtml(urlPath)).append("</h1>\n<ul>\n<li><a href=\"../\">../</a></li>\n");
            for (String n : names) {
                boolean isDir = n.endsWith("/");
                String bare = isDir ? n.substring(0, n.length() - 1) : n;
                String href = QueryStringEncoder.encodeComponent(bare) + (isDir ? "/" : "");
                html.append("<li><a href=\"").append(href).append("\">").append(FileRequests.escapeHtml(n)).append("</a></li>\n");
            }
            html.append("</ul>\n</body></html>\n");
            FullHttpResponse r = text(HttpResponseStatus.OK, html.toString());
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
            return r;
        }

        private static FullHttpResponse text(HttpResponseStatus status, String body) {
            ByteBuf buf = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
            FullHttpResponse r = new DefaultFullHttpResponse(io.rill.handler.codec.http.HttpVersion.HTTP_1_1, status, buf);
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                    .set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(buf.readableBytes()));
            return r;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {} after an error: {}", ctx.channel(), cause.toString());
            ctx.close();
        }
    }
}
