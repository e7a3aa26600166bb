package io.rill.handler.codec.http2;

/**
 * Written by the application: it has consumed {@code bytes} of a stream's received content, so
 * the codec may let the peer send that much more (on the stream and on the connection). The
 * codec sends WINDOW_UPDATE frames when enough has been consumed, not for every call.
 *
 * @param streamId the stream whose content was consumed
 * @param bytes how many bytes, as counted by {@link Http2DataFrame#flowControlled()}
 */
public record Http2WindowUpdateFrame(int streamId, int bytes) implements Http2StreamFrame {
}
