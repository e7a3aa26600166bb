package io.rill.buffer;

import java.io.OutputStream;

/** Appends to a buffer as an {@link OutputStream}; the buffer grows as needed. Closing does nothing. */
public final class ByteBufOutputStream extends OutputStream {

    private final ByteBuf buf;

    public ByteBufOutputStream(ByteBuf buf) {
        this.buf = buf;
    }

    /** The buffer written to. */
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

    /** Appends {@code text} as UTF-8. */
    public void writeUtf8(CharSequence text) {
        ByteBufUtil.writeUtf8(buf, text);
    }
}
