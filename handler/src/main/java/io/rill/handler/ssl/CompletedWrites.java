package io.rill.handler.ssl;

import java.util.ArrayList;
import java.util.List;

import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Promise;

/**
 * The promises of the writes that the record being wrapped completes: {@link PendingPlaintext}
 * adds them as it hands out their last bytes, and the record's own write completes them. Reused
 * for every record. Event-loop thread only.
 */
final class CompletedWrites {

    private final List<Promise<Void>> writes = new ArrayList<>(4);

    /** {@return the list PendingPlaintext adds to} */
    List<Promise<Void>> list() {
        return writes;
    }

    /** {@return one promise for the record just wrapped, completing every write it finished} Empties this. */
    Promise<Void> promiseForRecord(ChannelHandlerContext ctx) {
        int n = writes.size();
        if (n == 1) {
            Promise<Void> only = writes.get(0);
            writes.clear();
            return only;
        }
        Promise<Void> record = ctx.newPromise();
        if (n > 1) {
            List<Promise<Void>> finished = new ArrayList<>(writes);
            record.addListener(f -> {
                for (Promise<Void> p : finished) {
                    if (f.isSuccess()) {
                        p.trySuccess(null);
                    } else {
                        p.tryFailure(f.cause());
                    }
                }
            });
        }
        writes.clear();
        return record;
    }

    /** Fails every write of the record that could not be wrapped; empties this. */
    void fail(Throwable cause) {
        for (Promise<Void> p : writes) {
            p.tryFailure(cause);
        }
        writes.clear();
    }
}
