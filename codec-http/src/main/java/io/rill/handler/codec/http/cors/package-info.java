/**
 * Cross-origin resource sharing for servers: {@link io.rill.handler.codec.http.cors.CorsHandler}
 * answers preflights and grants reads as its {@link io.rill.handler.codec.http.cors.CorsConfig} says.
 */
package io.rill.handler.codec.http.cors;
