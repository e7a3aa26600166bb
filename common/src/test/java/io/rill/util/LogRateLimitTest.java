package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LogRateLimitTest {

    @Test
    void oneLineAnIntervalAndTheNextOneCountsWhatWasHeldBack() {
        LogRateLimit limit = new LogRateLimit(1000);
        assertEquals(0, limit.tryLog(Long.MIN_VALUE + 5), "the first line passes, whatever the clock says");
        assertEquals(-1, limit.tryLog(Long.MIN_VALUE + 500));
        assertEquals(-1, limit.tryLog(Long.MIN_VALUE + 1004));
        assertEquals(2, limit.tryLog(Long.MIN_VALUE + 1005), "a full interval later, with the two held back");
        assertEquals(-1, limit.tryLog(Long.MIN_VALUE + 1006));
    }

    @Test
    void theIntervalMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new LogRateLimit(0));
    }
}
