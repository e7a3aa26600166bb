package io.rill.handler.logging;

/** How {@link LoggingHandler} shows a buffer's content. */
public enum ByteBufFormat {
    /** Only the number of readable bytes. */
    SIMPLE,
    /** The number of readable bytes and a table of them, hex and ASCII (ByteBufUtil's pretty hex dump). */
    HEX
}
