package io.rill.handler.codec.http.multipart;

/** A form field: a name and a text value, held in memory (bounded by the decoder's limits). */
public final class Attribute extends HttpData {

    private final String value;

    Attribute(String name, String value) {
        super(name);
        this.value = value;
    }

    /**
     * The field's value, decoded.
     *
     * @return the value
     */
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return "Attribute(" + name() + '=' + (value.length() > 64 ? value.substring(0, 64) + "..." : value) + ')';
    }
}
