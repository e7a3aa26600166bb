package io.rill.handler.logging;

import java.net.SocketAddress;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Promise;

/**
 * Logs every event and operation that passes it, then passes it on unchanged: a debugging
 * aid to put anywhere in a pipeline. Inbound events and outbound operations are both logged,
 * each line prefixed with the channel's id and addresses; {@link ByteBuf} messages show their
 * size and, in {@link ByteBufFormat#HEX}, a hex dump of their readable bytes.
 *
 * <p>Logs through Rill's {@link InternalLogger} over {@link System.Logger}, under the owner
 * class's name ({@code LoggingHandler} itself by default), at one {@link LogLevel}; when that
 * level is disabled an event costs a level check. Keeps no per-channel state: sharable.
 */
@ChannelHandler.Sharable
public class LoggingHandler implements ChannelHandler {

    private final InternalLogger logger;
    private final LogLevel level;
    private final ByteBufFormat format;

    /** Logs at DEBUG with hex dumps. */
    public LoggingHandler() {
        this(LogLevel.DEBUG);
    }

    /**
     * Logs at {@code level} with hex dumps, under {@code LoggingHandler}'s name.
     *
     * @param level the level of every line
     */
    public LoggingHandler(LogLevel level) {
        this(level, ByteBufFormat.HEX);
    }

    /**
     * Logs at {@code level}, under {@code LoggingHandler}'s name.
     *
     * @param level  the level of every line
     * @param format how buffers are shown
     */
    public LoggingHandler(LogLevel level, ByteBufFormat format) {
        this(LoggingHandler.class, level, format);
    }

    /**
     * Logs at {@code level} with hex dumps, under {@code owner}'s name.
     *
     * @param owner names the logger, e.g. the class that set up the pipeline
     * @param level the level of every line
     */
    public LoggingHandler(Class<?> owner, LogLevel level) {
        this(owner, level, ByteBufFormat.HEX);
    }

    /**
     * Logs at {@code level}, under {@code owner}'s name.
     *
     * @param owner  names the logger, e.g. the class that set up the pipeline
     * @param level  the level of every line
     * @param format how buffers are shown
     * @throws NullPointerException if an argument is null
     */
    public LoggingHandler(Class<?> owner, LogLevel level, ByteBufFormat format) {
        this(owner == null ? null : owner.getName(), level, format, "owner");
    }

    /**
     * Logs at {@code level} with hex dumps, under the logger {@code name}: Netty's
     * {@code new LoggingHandler("wire", LogLevel.DEBUG)}.
     *
     * @param name  the logger's name, as {@link System#getLogger(String)} takes it
     * @param level the level of every line
     * @throws NullPointerException if an argument is null
     */
    public LoggingHandler(String name, LogLevel level) {
        this(name, level, ByteBufFormat.HEX);
    }

    /**
     * Logs at {@code level}, under the logger {@code name}.
     *
     * @param name   the logger's name, as {@link System#getLogger(String)} takes it
     * @param level  the level of every line
     * @param format how buffers are shown
     * @throws NullPointerException if an argument is null
     */
    public LoggingHandler(String name, LogLevel level, ByteBufFormat format) {
        this(name, level, format, "name");
    }

    private LoggingHandler(String loggerName, LogLevel level, ByteBufFormat format, String nameParameter) {
        if (loggerName == null || level == null || format == null) {
            throw new NullPointerException(loggerName == null ? nameParameter : level == null ? "level" : "format");
        }
        this.logger = InternalLogger.get(loggerName);
        this.level = level;
        this.format = format;
    }

    /**
     * The level this handler logs at.
     *
     * @return the level
     */
    public LogLevel level() {
        return level;
    }

    /**
     * How this handler shows buffers.
     *
     * @return the format
     */
    public ByteBufFormat byteBufFormat() {
        return format;
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
        log(ctx, "REGISTERED");
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) {
        log(ctx, "UNREGISTERED");
        ctx.fireChannelUnregistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        log(ctx, "ACTIVE");
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        log(ctx, "INACTIVE");
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        log(ctx, "READ", msg);
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        log(ctx, "READ COMPLETE");
        ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        log(ctx, "USER EVENT", evt);
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (level.isEnabled(logger)) {
            emit(ctx, "WRITABILITY CHANGED: " + ctx.channel().isWritable(), null);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (level.isEnabled(logger)) {
            emit(ctx, "EXCEPTION: " + cause, cause);
        }
        ctx.fireExceptionCaught(cause);
    }

    // ---------------------------------------------------------------- outbound

    @Override
    public void bind(ChannelHandlerContext ctx, SocketAddress localAddress, Promise<Void> promise) {
        log(ctx, "BIND", localAddress);
        ctx.bind(localAddress, promise);
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                        Promise<Void> promise) {
        if (level.isEnabled(logger)) {
            emit(ctx, "CONNECT: " + remoteAddress + (localAddress == null ? "" : ", " + localAddress), null);
        }
        ctx.connect(remoteAddress, localAddress, promise);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, Promise<Void> promise) {
        log(ctx, "DISCONNECT");
        ctx.disconnect(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, Promise<Void> promise) {
        log(ctx, "CLOSE");
        ctx.close(promise);
    }

    @Override
    public void register(ChannelHandlerContext ctx, Promise<Void> promise) {
        log(ctx, "REGISTER");
        ctx.register(promise);
    }

    @Override
    public void deregister(ChannelHandlerContext ctx, Promise<Void> promise) {
        log(ctx, "DEREGISTER");
        ctx.deregister(promise);
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        log(ctx, "READ REQUEST");
        ctx.read();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        log(ctx, "WRITE", msg);
        ctx.write(msg, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        log(ctx, "FLUSH");
        ctx.flush();
    }

    // ---------------------------------------------------------------- formatting

    private void log(ChannelHandlerContext ctx, String event) {
        if (level.isEnabled(logger)) {
            emit(ctx, event, null);
        }
    }

    private void log(ChannelHandlerContext ctx, String event, Object arg) {
        if (level.isEnabled(logger)) {
            emit(ctx, arg instanceof ByteBuf buf ? formatBuffer(event, buf) : event + ": " + arg, null);
        }
    }

    private void emit(ChannelHandlerContext ctx, String message, Throwable cause) {
        level.log(logger, channelPrefix(ctx.channel()) + ' ' + message, cause);
    }

    /**
     * The line for a buffer event: its size, then (in HEX) the table of its readable bytes on
     * the following lines. Only the readable bytes are shown: they are what moves through the
     * pipeline.
     *
     * @param event the name of the event, e.g. {@code READ}
     * @param buf   the buffer; neither consumed nor released
     * @return the text to log
     */
    protected String formatBuffer(String event, ByteBuf buf) {
        int length = buf.readableBytes();
        if (format == ByteBufFormat.SIMPLE || length == 0) {
            return event + ": " + length + 'B';
        }
        return event + ": " + length + 'B' + System.lineSeparator() + ByteBufUtil.prettyHexDump(buf);
    }

    /**
     * {@code [id, L:local - R:remote]}, or fewer parts while the channel lacks addresses.
     *
     * @param ch the channel
     * @return the prefix of every line about {@code ch}
     */
    protected String channelPrefix(Channel ch) {
        String id = ch.id().asShortText();
        SocketAddress local = ch.localAddress();
        if (local == null) {
            return "[" + id + ']';
        }
        SocketAddress remote = ch.remoteAddress();
        if (remote == null) {
            return "[" + id + ", L:" + local + ']';
        }
        return "[" + id + ", L:" + local + (ch.isActive() ? " - " : " ! ") + "R:" + remote + ']';
    }
}
