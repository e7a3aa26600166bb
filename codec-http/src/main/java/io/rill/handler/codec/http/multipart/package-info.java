/**
 * Form bodies: {@link io.rill.handler.codec.http.multipart.HttpPostRequestDecoder} reads
 * {@code application/x-www-form-urlencoded} and {@code multipart/form-data} incrementally under hard
 * limits, spilling large uploads to private temporary files;
 * {@link io.rill.handler.codec.http.multipart.HttpPostRequestEncoder} builds such bodies.
 */
package io.rill.handler.codec.http.multipart;
