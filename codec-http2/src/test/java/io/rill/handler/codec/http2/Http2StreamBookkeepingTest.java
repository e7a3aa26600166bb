package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The int-keyed map and the ring of recently closed streams that Http2Connection keeps per stream. */
class Http2StreamBookkeepingTest {

    @Test
    void intMapAgreesWithHashMapOverRandomStreamLifetimes() {
        Random random = new Random(14);
        IntMap<String> map = new IntMap<>();
        Map<Integer, String> model = new HashMap<>();
        List<Integer> open = new ArrayList<>();
        int nextId = 1;
        for (int step = 0; step < 200_000; step++) {
            // Streams open in id order and close in any order, as on a busy connection; up to ~300 at once.
            if (open.isEmpty() || open.size() < 300 && random.nextBoolean()) {
                String value = "s" + nextId;
                assertEquals(model.put(nextId, value), map.put(nextId, value));
                open.add(nextId);
                nextId += 2;
            } else {
                int id = open.remove(random.nextInt(open.size()));
                assertEquals(model.remove(id), map.remove(id));
            }
            int probe = 1 + 2 * random.nextInt(nextId / 2 + 1);
            assertEquals(model.get(probe), map.get(probe));
            assertEquals(model.size(), map.size());
        }
        for (Map.Entry<Integer, String> e : model.entrySet()) {
            assertEquals(e.getValue(), map.get(e.getKey()));
        }
        assertEquals(new ArrayList<>(model.values()).stream().sorted().toList(),
                map.values().stream().sorted().toList());
    }

    @Test
    void intMapReplacesRemovesAndClears() {
        IntMap<String> map = new IntMap<>();
        assertNull(map.get(3));
        assertNull(map.remove(3));
        assertTrue(map.values().isEmpty());
        assertNull(map.put(0, "connection"));
        assertNull(map.put(-7, "negative"));
        assertEquals("connection", map.put(0, "again"));
        assertEquals("again", map.get(0));
        assertEquals("negative", map.remove(-7));
        assertFalse(map.containsKey(-7));
        assertEquals(1, map.size());
        map.clear();
        assertTrue(map.isEmpty());
        assertNull(map.get(0));
    }

    @Test
    void recentlyClosedForgetsTheOldestFirstAndKeepsOrderWhenRemembered() {
        RecentlyClosedStreams closed = new RecentlyClosedStreams(3);
        closed.remember(1, false);
        closed.remember(3, true);
        closed.remember(5, false);
        closed.remember(1, true); // an update: 1 stays the oldest
        assertEquals(Boolean.TRUE, closed.resetByUs(1));
        closed.remember(7, false);
        assertFalse(closed.contains(1));
        assertNull(closed.resetByUs(1));
        assertEquals(Boolean.TRUE, closed.resetByUs(3));
        closed.remember(9, true);
        closed.remember(11, true);
        assertFalse(closed.contains(3));
        assertFalse(closed.contains(5));
        assertTrue(closed.contains(7) && closed.contains(9) && closed.contains(11));
        for (int id = 13; id < 1013; id += 2) {
            closed.remember(id, false);
        }
        assertTrue(closed.contains(1011) && closed.contains(1009) && closed.contains(1007));
        assertFalse(closed.contains(1005));
    }
}
