package io.rill.handler.codec.http;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event {@code io.rill.HttpRequestServed}: one HTTP request was answered, seen by an
 * {@link HttpRequestRecorder}. Off by default, even in recordings that turn on the rest of Rill's
 * events: a busy server answers too many requests to record each one. Turn it on with
 * {@code jfr configure}, a {@code .jfc} file, or {@code Recording.enable("io.rill.HttpRequestServed")}.
 */
@Name("io.rill.HttpRequestServed")
@Label("HTTP Request Served")
@Category({"Rill", "HTTP"})
@Description("An HTTP request was answered (off unless enabled)")
@Enabled(false)
@StackTrace(false)
final class HttpRequestServedEvent extends jdk.jfr.Event {

    /** Asked whether the event is on; isEnabled() reads no state of the instance, so one serves every thread. */
    static final HttpRequestServedEvent PROBE = new HttpRequestServedEvent();

    @Label("Method")
    String method;

    @Label("Path")
    @Description("The request target without its query, which may carry personal data")
    String path;

    @Label("Status")
    int status;

    @Label("Response Body Bytes")
    @DataAmount
    long bytes;

    /** Not "duration": JFR reserves that name for the built-in duration of every event. */
    @Label("Response Time")
    @Description("From the request head being read to the last of the response being written")
    @Timespan(Timespan.NANOSECONDS)
    long responseTime;
}
