package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * {@code websocket-chat} in a real browser: headless Chromium, driven over the DevTools protocol
 * by {@code chat_browser.py}, opens the page in two tabs; a message typed in each appears in the
 * other. CI installs Debian's {@code chromium} and Python's {@code websockets} ({@code .ci/run});
 * elsewhere the test is skipped when either is missing.
 */
class WebSocketChatBrowserTest {

    @Test
    void aMessageTypedInOneTabAppearsInTheOther() throws Exception {
        boolean chromium = new File("/usr/bin/chromium").canExecute();
        boolean websockets = new ProcessBuilder("python3", "-c", "import websockets").start().waitFor() == 0;
        boolean ci = "true".equals(System.getenv("CI"));
        assertTrue(!ci || chromium && websockets, "CI must install chromium and websockets (.ci/run)");
        assumeTrue(chromium && websockets, "chromium or python3 websockets is not installed");
        try (ForkedExample server = new ForkedExample("websocket-chat", "--port", "0")) {
            Process p = new ProcessBuilder("python3", Path.of("src", "test", "resources", "chat_browser.py").toString(),
                    Integer.toString(server.port())).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the browser script finished");
            assertEquals(0, p.exitValue(), out + "\nserver log:\n" + server.stderr());
            assertTrue(out.contains("ALL OK"), out);
        }
    }
}
