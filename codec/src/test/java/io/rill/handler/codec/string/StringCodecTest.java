package io.rill.handler.codec.string;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.DecoderRun;
import io.rill.handler.codec.LineBasedFrameDecoder;

class StringCodecTest {

    private static final String TEXT = "grüße, 世界, 🙂 and plain";

    @Test
    void stringsRoundTripInSeveralCharsets() {
        for (Charset cs : List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.ISO_8859_1)) {
            String text = cs == StandardCharsets.ISO_8859_1 ? "grüße" : TEXT;
            EmbeddedChannel ch = new EmbeddedChannel(new StringEncoder(cs), new StringDecoder(cs));
            ch.writeOutbound(text);
            ByteBuf wire = ch.readOutbound();
            assertEquals(ByteBufUtil.hexDump(text.getBytes(cs)), ByteBufUtil.hexDump(wire), cs.name());
            ch.writeInbound(wire);
            assertEquals(text, ch.readInbound(), cs.name());
            assertFalse(ch.finish());
        }
    }

    @Test
    void linesWithMultiByteCharactersSurviveAnySplitWhenFramedFirst() {
        byte[] input = (TEXT + "\n" + TEXT + "\r\n").getBytes(StandardCharsets.UTF_8);
        List<String> events = DecoderRun.pipelineEveryWay(() -> new ChannelHandler[] {new LineBasedFrameDecoder(100),
            new StringDecoder(StandardCharsets.UTF_8)}, input);
        assertEquals(List.of(TEXT, TEXT, "|end"), events);
    }

    @Test
    void theLineEncoderAppendsTheChosenSeparator() {
        for (LineSeparator sep : LineSeparator.values()) {
            EmbeddedChannel ch = new EmbeddedChannel(new LineEncoder(sep));
            ch.writeOutbound("héllo", new StringBuilder("x"));
            List<String> lines = new ArrayList<>();
            for (ByteBuf b; (b = ch.readOutbound()) != null; b.release()) {
                lines.add(b.toString(StandardCharsets.UTF_8));
            }
            assertEquals(List.of("héllo" + sep.value(), "x" + sep.value()), lines);
            assertFalse(ch.finish());
        }
    }
}
