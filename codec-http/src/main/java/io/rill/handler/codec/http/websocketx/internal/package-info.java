/**
 * What the WebSocket client handlers of Rill's modules share: not API. The module exports this
 * package to Rill's HTTP/2 module only, whose RFC 8441 client waits for its handshake the way the
 * HTTP/1.1 client does, and it is left out of the published javadoc.
 */
package io.rill.handler.codec.http.websocketx.internal;
