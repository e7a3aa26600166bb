package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.junit.jupiter.api.Test;

/**
 * Members who join at the same moment each get a count of their own: the real chats, each in a
 * JVM of its own with several loops (members land on different threads), joined by many members
 * released together. Each newcomer's count is how many were there with it, so the counts of the
 * joins are exactly 1..N (websocket-chat's "N here") or 0..N-1 (line-chat-server's "N other(s) here").
 */
class ChatJoinCountTest {

    private static final int MEMBERS = 24;

    @Test
    void lineChatWelcomesEachOfManySimultaneousMembersWithItsOwnCount() throws Exception {
        try (ForkedExample chat = new ForkedExample("line-chat-server", "--port", "0", "--threads", "4")) {
            List<Socket> sockets = new ArrayList<>();
            try {
                Set<Integer> counts = joinTogether(i -> {
                    Socket s = new Socket();
                    synchronized (sockets) {
                        sockets.add(s);
                    }
                    try {
                        s.connect(new InetSocketAddress("127.0.0.1", chat.port()), 5000);
                        s.setSoTimeout(10_000);
                        String welcome = LineChatServerTest.readLine(s.getInputStream()); // "Welcome, guest-x. N other(s) here. ..."
                        int dot = welcome.indexOf(". ");
                        return Integer.parseInt(welcome.substring(dot + 2, welcome.indexOf(' ', dot + 2)));
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                assertEquals(range(0, MEMBERS), counts, "one count per member: " + counts);
            } finally {
                for (Socket s : sockets) {
                    s.close();
                }
            }
        }
    }

    @Test
    void webSocketChatAnnouncesEachOfManySimultaneousJoinsWithItsOwnCount() throws Exception {
        try (ForkedExample chat = new ForkedExample("websocket-chat", "--port", "0", "--threads", "4")) {
            HttpClient client = HttpClient.newHttpClient();
            List<WebSocket> sockets = new ArrayList<>();
            try {
                Set<Integer> counts = joinTogether(i -> {
                    CompletableFuture<String> ownJoin = new CompletableFuture<>();
                    WebSocket ws = client.newWebSocketBuilder()
                            .buildAsync(URI.create("ws://127.0.0.1:" + chat.port() + "/ws"), new WebSocket.Listener() {
                                @Override
                                public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                                    // The first message a member gets is its own join: it joins, then it is told.
                                    ownJoin.complete(data.toString());
                                    w.request(1);
                                    return null;
                                }
                            }).join();
                    synchronized (sockets) {
                        sockets.add(ws);
                    }
                    String joined = ownJoin.orTimeout(10, TimeUnit.SECONDS).join(); // "* guest-x joined; N here"
                    assertTrue(joined.endsWith(" here"), joined);
                    return Integer.parseInt(joined.substring(joined.indexOf("; ") + 2, joined.lastIndexOf(' ')));
                });
                assertEquals(range(1, MEMBERS + 1), counts, "one count per join: " + counts);
            } finally {
                for (WebSocket ws : sockets) {
                    ws.abort();
                }
            }
        }
    }

    /** Runs {@code join} for {@link #MEMBERS} members released at once; returns the distinct counts they got. */
    private static Set<Integer> joinTogether(IntFunction<Integer> join) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Integer>> joins = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            int member = i;
            CompletableFuture<Integer> count = new CompletableFuture<>();
            joins.add(count);
            TestThreads.run("member-" + i, () -> {
                try {
                    start.await();
                    count.complete(join.apply(member));
                } catch (Throwable t) {
                    count.completeExceptionally(t);
                }
            });
        }
        start.countDown();
        Set<Integer> counts = new TreeSet<>();
        for (CompletableFuture<Integer> count : joins) {
            counts.add(count.get(20, TimeUnit.SECONDS));
        }
        return counts;
    }

    private static Set<Integer> range(int from, int to) {
        Set<Integer> all = new TreeSet<>();
        for (int i = from; i < to; i++) {
            all.add(i);
        }
        return all;
    }
}
