package io.rill.channel.epoll;

import java.io.IOException;

/**
 * A snapshot of the kernel's {@code struct tcp_info} for one connection ({@code TCP_INFO},
 * see {@code tcp(7)} and {@code linux/tcp.h}); times are in microseconds unless named otherwise.
 */
public final class TcpInfo {

    private static final int FIELDS = 28;

    private final long[] v;

    private TcpInfo(long[] values) {
        this.v = values;
    }

    static TcpInfo read(LinuxSocket socket) throws IOException {
        long[] values = new long[FIELDS];
        Errors.check("getsockopt(TCP_INFO)", Native.tcpInfo(socket.fd(), values));
        return new TcpInfo(values);
    }

    /** TCP state, e.g. 1 = ESTABLISHED, 7 = CLOSE (linux/tcp_states.h). */
    public int state() {
        return (int) v[0];
    }

    public int caState() {
        return (int) v[1];
    }

    public int retransmits() {
        return (int) v[2];
    }

    public int probes() {
        return (int) v[3];
    }

    public int backoff() {
        return (int) v[4];
    }

    /** TCPI_OPT_* bits negotiated (timestamps, SACK, window scaling, ECN, ...). */
    public int options() {
        return (int) v[5];
    }

    public int sndWscale() {
        return (int) v[6];
    }

    public int rcvWscale() {
        return (int) v[7];
    }

    /** Retransmission timeout. */
    public long rto() {
        return v[8];
    }

    /** Delayed-ACK timeout. */
    public long ato() {
        return v[9];
    }

    public long sndMss() {
        return v[10];
    }

    public long rcvMss() {
        return v[11];
    }

    public long unacked() {
        return v[12];
    }

    public long sacked() {
        return v[13];
    }

    public long lost() {
        return v[14];
    }

    public long retrans() {
        return v[15];
    }

    /** Milliseconds since data was last sent. */
    public long lastDataSent() {
        return v[16];
    }

    /** Milliseconds since data was last received. */
    public long lastDataRecv() {
        return v[17];
    }

    public long pmtu() {
        return v[18];
    }

    public long rcvSsthresh() {
        return v[19];
    }

    /** Smoothed round-trip time. */
    public long rtt() {
        return v[20];
    }

    public long rttvar() {
        return v[21];
    }

    public long sndSsthresh() {
        return v[22];
    }

    /** Congestion window, in segments. */
    public long sndCwnd() {
        return v[23];
    }

    public long advmss() {
        return v[24];
    }

    public long reordering() {
        return v[25];
    }

    public long rcvSpace() {
        return v[26];
    }

    public long totalRetrans() {
        return v[27];
    }

    @Override
    public String toString() {
        return "TcpInfo(state " + state() + ", rtt " + rtt() + " us, rttvar " + rttvar() + " us, cwnd " + sndCwnd()
                + ", snd_mss " + sndMss() + ", retrans " + totalRetrans() + ')';
    }
}
