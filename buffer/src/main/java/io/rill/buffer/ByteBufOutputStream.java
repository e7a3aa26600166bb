package io.rill.buffer;

import java.io.OutputStream;

/** Appends to a buffer as an {@link OutputStream}; the buffer grows as needed. Closing does nothing. */
public final class ByteBufOutputStream extends OutputStream {

    private final ByteBuf buf;

    /**
     * A stream appending to {@code buf}; the caller keeps ownership of it.
     *
     * @param buf the buffer to write to
     */
    public ByteBufOutputStream(ByteBuf buf) {
        this.buf = buf;
    }

    /** {@return the buffer written to} */
    public ByteBuf buffer() {
        return buf;
    }

    @Override
    public void write(int b) {
        buf.writeByte(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        buf.writeBytes(b, off, len);
    }

    /**
     * Appends {@code text} as UTF-8.
     *
     * @param text the characters to append
     */
    public void writeUtf8(CharSequence text) {
        ByteBufUtil.writeUtf8(buf, text);
    }
}
