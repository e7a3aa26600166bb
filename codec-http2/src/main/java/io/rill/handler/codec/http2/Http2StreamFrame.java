package io.rill.handler.codec.http2;

/**
 * A frame that belongs to one stream: what {@link Http2FrameCodec} passes up the pipeline for
 * each stream and takes from it to send.
 */
public interface Http2StreamFrame {

    /**
     * The stream the frame belongs to; 0 on a client's first HEADERS of a new stream, which the
     * codec then numbers.
     *
     * @return the stream id
     */
    int streamId();
}
