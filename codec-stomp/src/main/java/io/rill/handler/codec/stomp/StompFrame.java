package io.rill.handler.codec.stomp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;
import io.rill.buffer.Unpooled;

/**
 * One STOMP frame: its command, its headers in order (a name may repeat; the first one counts, as
 * the spec says) and its body, released with the frame.
 */
public final class StompFrame implements ByteBufHolder {

    private final StompCommand command;
    private final List<Map.Entry<String, String>> headers;
    private final ByteBuf body;

    /**
     * A frame.
     *
     * @param command the command
     * @param headers the headers in order; names and values may hold any character (the encoder escapes)
     * @param body the body, owned by the frame from now on
     */
    public StompFrame(StompCommand command, List<Map.Entry<String, String>> headers, ByteBuf body) {
        if (command == null || body == null) {
            throw new NullPointerException("command and body are required");
        }
        this.command = command;
        this.headers = List.copyOf(headers);
        this.body = body;
    }

    /**
     * A frame without a body.
     *
     * @param command the command
     * @param namesAndValues header names and values, alternately
     * @return the frame
     */
    public static StompFrame of(StompCommand command, String... namesAndValues) {
        return of(command, Unpooled.EMPTY_BUFFER, namesAndValues);
    }

    /**
     * A frame with a body.
     *
     * @param command the command
     * @param body the body, owned by the frame
     * @param namesAndValues header names and values, alternately
     * @return the frame
     */
    public static StompFrame of(StompCommand command, ByteBuf body, String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("header names and values come in pairs");
        }
        List<Map.Entry<String, String>> headers = new ArrayList<>(namesAndValues.length / 2);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(Map.entry(namesAndValues[i], namesAndValues[i + 1]));
        }
        return new StompFrame(command, headers, body);
    }

    /** {@return the command} */
    public StompCommand command() {
        return command;
    }

    /** {@return the headers, in order, unmodifiable} */
    public List<Map.Entry<String, String>> headers() {
        return headers;
    }

    /**
     * The first value of a header.
     *
     * @param name the header's name, exactly (STOMP names are case-sensitive)
     * @return its first value, or null
     */
    public String header(String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equals(name)) {
                return h.getValue();
            }
        }
        return null;
    }

    /** {@return the body} */
    @Override
    public ByteBuf content() {
        return body;
    }

    @Override
    public StompFrame replace(ByteBuf content) {
        return new StompFrame(command, headers, content);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StompFrame f && command == f.command && headers.equals(f.headers) && body.equals(f.body);
    }

    @Override
    public int hashCode() {
        return command.hashCode() * 31 + headers.hashCode();
    }

    @Override
    public String toString() {
        return "StompFrame(" + command + ", " + headers + ", " + body.readableBytes() + " bytes)";
    }
}
