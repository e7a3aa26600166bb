package io.rill.handler.codec.stomp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StompHeartBeatHeaderTest {

    @Test
    void eachSideSendsAtTheLargerOfWhatItCanAndWhatTheOtherWants() {
        StompHeartBeatHeader client = StompHeartBeatHeader.parse("1000,5000");
        StompHeartBeatHeader server = new StompHeartBeatHeader(2000, 3000);
        assertEquals(5000, server.sendInterval(client));
        assertEquals(3000, client.sendInterval(server));
        assertEquals("2000,3000", server.toString());
    }

    @Test
    void zeroOnEitherSideMeansNone() {
        StompHeartBeatHeader server = new StompHeartBeatHeader(2000, 3000);
        assertEquals(0, server.sendInterval(StompHeartBeatHeader.parse("1000,0")));
        assertEquals(0, StompHeartBeatHeader.parse("0,1000").sendInterval(server));
        assertEquals(StompHeartBeatHeader.NONE, StompHeartBeatHeader.parse(null));
        assertEquals(0, server.sendInterval(StompHeartBeatHeader.NONE));
    }

    @Test
    void aClientCannotMakeTheServerSendFasterThanItChose() {
        StompHeartBeatHeader server = new StompHeartBeatHeader(10_000, 10_000);
        StompHeartBeatHeader eager = StompHeartBeatHeader.parse("1,1");
        assertEquals(10_000, server.sendInterval(eager));
        assertEquals(10_000, eager.sendInterval(server));
    }

    @Test
    void malformedValuesAreRefusedByName() {
        for (String bad : new String[] {"", "1000", "1000,", ",1000", "-1,0", "1 ,0", "0,1x", "1234567890,0", "0,0,0"}) {
            StompDecoderException e = assertThrows(StompDecoderException.class, () -> StompHeartBeatHeader.parse(bad), bad);
            assertEquals(true, e.getMessage().contains("heart-beat header"), e.getMessage());
        }
    }
}
