/**
 * An SMTP client codec (RFC 5321). {@link io.rill.handler.codec.smtp.SmtpRequestEncoder} writes
 * {@link io.rill.handler.codec.smtp.SmtpRequest}s and the message that follows {@code DATA} as
 * {@link io.rill.handler.codec.smtp.SmtpContent} pieces ending with a
 * {@link io.rill.handler.codec.smtp.LastSmtpContent}; {@link io.rill.handler.codec.smtp.SmtpResponseDecoder}
 * reads replies, multi-line ones whole, as {@link io.rill.handler.codec.smtp.SmtpResponse}.
 *
 * <pre>{@code
 * pipeline.addLast(new SmtpResponseDecoder(), new SmtpRequestEncoder(), new MyMailer());
 * // after the greeting: several requests in one flush where the server offers PIPELINING (RFC 2920)
 * ch.write(SmtpRequest.ehlo("client.example"));
 * ch.write(SmtpRequest.mail("alice@example.org"));
 * ch.write(SmtpRequest.rcpt("bob@example.net"));
 * ch.writeAndFlush(SmtpRequest.data());
 * // on 354:
 * ch.writeAndFlush(new LastSmtpContent(Unpooled.copiedBuffer("Subject: hi\r\n\r\n.hello\r\n", US_ASCII)));
 * }</pre>
 *
 * <p>Safe by default: a request parameter holding CR or LF (which would smuggle a second command)
 * is refused when the request is made; the encoder dot-stuffs the message and turns a bare CR or
 * LF into CRLF, so no content can end the message early or hide a second one (SMTP smuggling);
 * the decoder bounds the reply line (4096 bytes) and the lines of one reply (128), and refuses
 * what is not a reply.
 */
package io.rill.handler.codec.smtp;
