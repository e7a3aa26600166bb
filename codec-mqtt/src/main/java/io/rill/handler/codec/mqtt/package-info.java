/**
 * MQTT 3.1.1 (OASIS, 2014) and MQTT 5.0 (OASIS, 2019). {@link io.rill.handler.codec.mqtt.MqttCodec}
 * turns bytes into {@link io.rill.handler.codec.mqtt.MqttMessage}s and back, on a client
 * ({@link io.rill.handler.codec.mqtt.MqttCodec#client}) or a broker
 * ({@link io.rill.handler.codec.mqtt.MqttCodec#server}); a broker's codec speaks the version the
 * client's CONNECT asked for.
 *
 * <p>Decoding is bounded and strict: a packet larger than the configured maximum is refused from
 * its fixed header before its body is buffered; variable byte integers must be minimal and at most
 * four bytes; strings must be well-formed UTF-8 without U+0000; topic names and filters are checked;
 * MQTT 5 properties are checked for type, place and repetition. Every refusal is an
 * {@link io.rill.handler.codec.mqtt.MqttDecoderException} carrying the MQTT 5 reason code to send.
 */
package io.rill.handler.codec.mqtt;
