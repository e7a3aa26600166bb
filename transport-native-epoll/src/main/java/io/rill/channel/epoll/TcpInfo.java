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

    /** {@return the TCP state, e.g. 1 = ESTABLISHED, 7 = CLOSE (linux/tcp_states.h)} */
    public int state() {
        return (int) v[0];
    }

    /**
     * {@return the congestion-avoidance state ({@code tcpi_ca_state}): 0 open, 1 disorder, 2 CWR, 3 recovery, 4
     * loss}
     */
    public int caState() {
        return (int) v[1];
    }

    /** {@return the retransmissions of the current unacknowledged segment ({@code tcpi_retransmits})} */
    public int retransmits() {
        return (int) v[2];
    }

    /** {@return the unanswered zero-window or keep-alive probes ({@code tcpi_probes})} */
    public int probes() {
        return (int) v[3];
    }

    /** {@return the exponential backoff of the retransmission timer ({@code tcpi_backoff})} */
    public int backoff() {
        return (int) v[4];
    }

    /** {@return the TCPI_OPT_* bits negotiated (timestamps, SACK, window scaling, ECN, ...)} */
    public int options() {
        return (int) v[5];
    }

    /** {@return the window scale the peer applies to what we advertise ({@code tcpi_snd_wscale})} */
    public int sndWscale() {
        return (int) v[6];
    }

    /** {@return the window scale we apply to what the peer advertises ({@code tcpi_rcv_wscale})} */
    public int rcvWscale() {
        return (int) v[7];
    }

    /** {@return the retransmission timeout, in microseconds} */
    public long rto() {
        return v[8];
    }

    /** {@return the delayed-ACK timeout, in microseconds} */
    public long ato() {
        return v[9];
    }

    /** {@return the maximum segment size for sending} */
    public long sndMss() {
        return v[10];
    }

    /** {@return the maximum segment size seen from the peer} */
    public long rcvMss() {
        return v[11];
    }

    /** {@return the segments sent and not yet acknowledged} */
    public long unacked() {
        return v[12];
    }

    /** {@return the segments the peer acknowledged selectively (SACK)} */
    public long sacked() {
        return v[13];
    }

    /** {@return the segments considered lost} */
    public long lost() {
        return v[14];
    }

    /** {@return the segments retransmitted and not yet acknowledged} */
    public long retrans() {
        return v[15];
    }

    /** {@return the milliseconds since data was last sent} */
    public long lastDataSent() {
        return v[16];
    }

    /** {@return the milliseconds since data was last received} */
    public long lastDataRecv() {
        return v[17];
    }

    /** {@return the path MTU} */
    public long pmtu() {
        return v[18];
    }

    /** {@return the receive-side slow-start threshold} */
    public long rcvSsthresh() {
        return v[19];
    }

    /** {@return the smoothed round-trip time, in microseconds} */
    public long rtt() {
        return v[20];
    }

    /** {@return the round-trip time variance, in microseconds} */
    public long rttvar() {
        return v[21];
    }

    /** {@return the send slow-start threshold, in segments} */
    public long sndSsthresh() {
        return v[22];
    }

    /** {@return the congestion window, in segments} */
    public long sndCwnd() {
        return v[23];
    }

    /** {@return the MSS we advertised} */
    public long advmss() {
        return v[24];
    }

    /** {@return the reordering degree the kernel assumes} */
    public long reordering() {
        return v[25];
    }

    /** {@return the receive-buffer space the kernel aims for ({@code tcpi_rcv_space})} */
    public long rcvSpace() {
        return v[26];
    }

    /** {@return the retransmissions over the connection's life} */
    public long totalRetrans() {
        return v[27];
    }

    @Override
    public String toString() {
        return "TcpInfo(state " + state() + ", rtt " + rtt() + " us, rttvar " + rttvar() + " us, cwnd " + sndCwnd()
                + ", snd_mss " + sndMss() + ", retrans " + totalRetrans() + ')';
    }
}
