/**
 * Ready-made handlers: logging, idle detection and timeouts, flush consolidation, chunked
 * writes of files and streams, traffic shaping and IP filtering.
 */
module io.rill.handler {
    requires transitive io.rill.transport;

    exports io.rill.handler.timeout;
}
