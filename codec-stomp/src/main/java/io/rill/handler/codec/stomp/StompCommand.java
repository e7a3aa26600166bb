package io.rill.handler.codec.stomp;

/** The frame commands of STOMP 1.2: the client's, then the server's. */
public enum StompCommand {
    /** Client: opens the session (the 1.0 name). */
    CONNECT,
    /** Client: opens the session (1.2). */
    STOMP,
    /** Client: sends a message to a destination. */
    SEND,
    /** Client: subscribes to a destination. */
    SUBSCRIBE,
    /** Client: ends a subscription. */
    UNSUBSCRIBE,
    /** Client: acknowledges a message. */
    ACK,
    /** Client: refuses a message. */
    NACK,
    /** Client: starts a transaction. */
    BEGIN,
    /** Client: commits a transaction. */
    COMMIT,
    /** Client: aborts a transaction. */
    ABORT,
    /** Client: ends the session. */
    DISCONNECT,
    /** Server: the session is open. */
    CONNECTED,
    /** Server: a message for a subscription. */
    MESSAGE,
    /** Server: a receipt asked for with a {@code receipt} header. */
    RECEIPT,
    /** Server: something went wrong; the server closes after it. */
    ERROR;

    /** CONNECT and CONNECTED frames escape nothing in their headers (1.2, "Value Encoding"). */
    boolean escapesHeaders() {
        return this != CONNECT && this != CONNECTED;
    }
}
