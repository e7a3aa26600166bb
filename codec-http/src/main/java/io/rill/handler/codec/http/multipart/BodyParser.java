package io.rill.handler.codec.http.multipart;

import java.io.IOException;

/** One body grammar, fed the body in pieces. */
interface BodyParser {

    /** Parses what it can of {@code b[off, off + len)}, keeping (bounded) what it cannot yet. */
    void feed(byte[] b, int off, int len) throws IOException;

    /** The body ended; fails if it ended in the middle of something. */
    void end() throws IOException;
}
