package io.rill.handler.codec.mqtt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The properties of an MQTT 5 packet, in wire order: an immutable list of (identifier, value)
 * pairs. Values have the Java type of their {@link MqttPropertyId.Type}: {@code Integer} for one-,
 * two-byte and variable byte integers, {@code Long} for four-byte integers, {@code String},
 * {@code byte[]} and {@link MqttUserProperty}. MQTT 3.1.1 packets carry {@link #NONE}.
 */
public final class MqttProperties {

    /** No properties. */
    public static final MqttProperties NONE = new MqttProperties(new MqttPropertyId[0], new Object[0]);

    private final MqttPropertyId[] ids;
    private final Object[] values;

    private MqttProperties(MqttPropertyId[] ids, Object[] values) {
        this.ids = ids;
        this.values = values;
    }

    /** {@return a builder of properties} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the number of properties, repeated ones counted each time} */
    public int size() {
        return ids.length;
    }

    /** {@return true if there are none} */
    public boolean isEmpty() {
        return ids.length == 0;
    }

    /**
     * {@return the identifier of the property at {@code index} in wire order}
     *
     * @param index from 0 to {@link #size()} - 1
     */
    public MqttPropertyId idAt(int index) {
        return ids[index];
    }

    /**
     * {@return the value of the property at {@code index} in wire order}
     *
     * @param index from 0 to {@link #size()} - 1
     */
    public Object valueAt(int index) {
        return values[index];
    }

    /**
     * {@return the first value of {@code id}, or null if absent}
     *
     * @param id the property
     */
    public Object get(MqttPropertyId id) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == id) {
                return values[i];
            }
        }
        return null;
    }

    /**
     * {@return every value of {@code id}, in wire order}
     *
     * @param id the property
     */
    public List<Object> getAll(MqttPropertyId id) {
        List<Object> all = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == id) {
                all.add(values[i]);
            }
        }
        return all;
    }

    /**
     * {@return the numeric value of {@code id}, or {@code absent}}
     *
     * @param id an integer property
     * @param absent what to return if the property is absent
     */
    public long number(MqttPropertyId id, long absent) {
        Object value = get(id);
        return value == null ? absent : ((Number) value).longValue();
    }

    /**
     * {@return the string value of {@code id}, or null}
     *
     * @param id a string property
     */
    public String string(MqttPropertyId id) {
        return (String) get(id);
    }

    /** {@return the user properties, in wire order} */
    public List<MqttUserProperty> userProperties() {
        List<MqttUserProperty> all = new ArrayList<>();
        for (Object value : getAll(MqttPropertyId.USER_PROPERTY)) {
            all.add((MqttUserProperty) value);
        }
        return all;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MqttProperties other) || !Arrays.equals(ids, other.ids)) {
            return false;
        }
        return Arrays.deepEquals(values, other.values);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(ids) + Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("{");
        for (int i = 0; i < ids.length; i++) {
            if (i > 0) {
                text.append(", ");
            }
            text.append(ids[i]).append('=');
            Object value = values[i];
            text.append(value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value);
        }
        return text.append('}').toString();
    }

    /**
     * Collects properties, checking each value's Java type and range; {@link #build} checks nothing
     * more, so a packet's encoder refuses a property its packet may not carry.
     */
    public static final class Builder {

        private final List<MqttPropertyId> ids = new ArrayList<>();
        private final List<Object> values = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds a property.
         *
         * @param id the property
         * @param value its value, of the Java type of its wire type
         * @return this builder
         * @throws IllegalArgumentException if the value's type or range does not fit, or a property
         *                                  that may not repeat is added twice
         */
        public Builder add(MqttPropertyId id, Object value) {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(value, "value");
            if (!id.repeatable() && ids.contains(id)) {
                throw new IllegalArgumentException(id + " may appear only once");
            }
            checkValue(id, value);
            ids.add(id);
            values.add(value instanceof byte[] bytes ? bytes.clone() : value);
            return this;
        }

        /**
         * Adds a user property.
         *
         * @param name the name
         * @param value the value
         * @return this builder
         */
        public Builder user(String name, String value) {
            return add(MqttPropertyId.USER_PROPERTY, new MqttUserProperty(name, value));
        }

        /** {@return the properties} */
        public MqttProperties build() {
            return ids.isEmpty() ? NONE : new MqttProperties(ids.toArray(new MqttPropertyId[0]), values.toArray());
        }

        private static void checkValue(MqttPropertyId id, Object value) {
            boolean ok = switch (id.type()) {
                case BYTE -> value instanceof Integer v && v >= 0 && v <= 1;
                case TWO_BYTE -> value instanceof Integer v && v >= id.minimum() && v <= 0xffff;
                case FOUR_BYTE -> value instanceof Long v && v >= id.minimum() && v <= 0xffffffffL;
                case VARIABLE_BYTE -> value instanceof Integer v && v >= id.minimum() && v <= MqttWire.MAX_VARIABLE_BYTE;
                case STRING -> value instanceof String;
                case BINARY -> value instanceof byte[] b && b.length <= 0xffff;
                case STRING_PAIR -> value instanceof MqttUserProperty;
            };
            if (!ok) {
                throw new IllegalArgumentException(id + " (" + id.type() + ") cannot be " + value);
            }
        }
    }

    /** Takes the first {@code count} decoded values, already checked by the decoder. */
    static MqttProperties of(MqttPropertyId[] ids, Object[] values, int count) {
        if (count == 0) {
            return NONE;
        }
        return count == ids.length ? new MqttProperties(ids, values)
                : new MqttProperties(Arrays.copyOf(ids, count), Arrays.copyOf(values, count));
    }
}
