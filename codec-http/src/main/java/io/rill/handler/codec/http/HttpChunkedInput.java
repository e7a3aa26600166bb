package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.handler.stream.ChunkedInput;

/**
 * A body for {@link io.rill.handler.stream.ChunkedWriteHandler} as HTTP pieces: each chunk of
 * the wrapped input becomes an {@link HttpContent}, and the end a {@link LastHttpContent} (with
 * the given trailers). Write the response head first, with {@code Transfer-Encoding: chunked} or
 * a {@code Content-Length}, then this:
 * <pre>{@code
 * ctx.write(head);   // HttpResponse, not a full one
 * ctx.writeAndFlush(new HttpChunkedInput(new ChunkedNioFile(file)));
 * }</pre>
 */
public class HttpChunkedInput implements ChunkedInput<HttpContent> {

    private final ChunkedInput<ByteBuf> input;
    private final LastHttpContent last;
    private boolean sentLast;

    /**
     * Sends {@code input}'s chunks as {@link HttpContent}, then an empty {@link LastHttpContent}.
     *
     * @param input the body; closed with this input
     */
    public HttpChunkedInput(ChunkedInput<ByteBuf> input) {
        this(input, LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /**
     * Sends {@code input}'s chunks as {@link HttpContent}, then {@code last}.
     *
     * @param input the body; closed with this input
     * @param last  sent after the input's last chunk; carries trailers for a chunked body
     * @throws NullPointerException if an argument is null
     */
    public HttpChunkedInput(ChunkedInput<ByteBuf> input, LastHttpContent last) {
        if (input == null || last == null) {
            throw new NullPointerException(input == null ? "input" : "last");
        }
        this.input = input;
        this.last = last;
    }

    @Override
    public boolean isEndOfInput() throws Exception {
        return input.isEndOfInput() && sentLast;
    }

    @Override
    public void close() throws Exception {
        input.close();
    }

    @Override
    public HttpContent readChunk(ByteBufAllocator alloc) throws Exception {
        if (input.isEndOfInput()) {
            if (sentLast) {
                return null;
            }
            sentLast = true;
            return last;
        }
        ByteBuf buf = input.readChunk(alloc);
        return buf == null ? null : new DefaultHttpContent(buf);
    }

    @Override
    public long length() {
        return input.length();
    }

    @Override
    public long progress() {
        return input.progress();
    }
}
