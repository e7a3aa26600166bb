package io.rill.channel.socket;

import java.net.InetAddress;
import java.net.NetworkInterface;

import io.rill.channel.Channel;
import io.rill.util.concurrent.Future;

/**
 * A UDP socket. It reads and writes {@link DatagramPacket}s; once connected it also writes plain
 * {@code ByteBuf}s to its one peer. Active as soon as it is bound.
 */
public interface DatagramChannel extends Channel {

    @Override
    DatagramChannelConfig config();

    /** {@return true while connected to one peer} */
    boolean isConnected();

    /**
     * Starts receiving datagrams sent to multicast {@code group} on {@code networkInterface}.
     *
     * @param group the multicast address
     * @param networkInterface the interface to receive on
     * @return a future completed when joined
     */
    Future<Void> joinGroup(InetAddress group, NetworkInterface networkInterface);

    /**
     * Stops receiving {@code group} on {@code networkInterface}; succeeds if it was not joined.
     *
     * @param group the multicast address
     * @param networkInterface the interface
     * @return a future completed when left
     */
    Future<Void> leaveGroup(InetAddress group, NetworkInterface networkInterface);
}
