package io.rill.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ByteBufAllocator#DEFAULT} follows {@code rill.allocator.type}. The property is read once
 * per JVM, so each setting other than the test JVM's own runs {@link Probe} in a fresh one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AllocatorChoiceTest {

    @Test
    void isThePooledAllocatorWhenNothingIsConfigured() throws Exception {
        assertSame(PooledByteBufAllocator.DEFAULT, ByteBufAllocator.DEFAULT);
        assertEquals("pooled", probe());
    }

    @Test
    void isTheUnpooledAllocatorWhenTheTypeSaysUnpooledInAnyCase() throws Exception {
        assertEquals("unpooled", probe("-Drill.allocator.type=unpooled"));
        assertEquals("unpooled", probe("-Drill.allocator.type=UnPooled"));
    }

    @Test
    void staysPooledForATypeItDoesNotKnow() throws Exception {
        assertEquals("pooled", probe("-Drill.allocator.type=arena"));
    }

    /** {@return the kind of allocator a fresh JVM with {@code jvmOptions} gets as the default} */
    private static String probe(String... jvmOptions) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the probe did not exit");
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    /** Prints which allocator {@link ByteBufAllocator#DEFAULT} is. */
    static final class Probe {
        public static void main(String[] args) {
            ByteBufAllocator chosen = ByteBufAllocator.DEFAULT;
            System.out.println(chosen == PooledByteBufAllocator.DEFAULT ? "pooled"
                    : chosen == UnpooledByteBufAllocator.DEFAULT ? "unpooled" : chosen.toString());
        }
    }
}
