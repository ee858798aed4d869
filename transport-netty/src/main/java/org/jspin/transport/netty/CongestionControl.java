package org.jspin.transport.netty;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import io.netty.channel.ChannelException;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.unix.RawUnixChannelOption;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP congestion control of the fabric's connections, set per socket ({@code TCP_CONGESTION})
 * once a connection is proven, where the native epoll transport runs.
 *
 * <p>By default a connection between two ranks of one host runs {@code reno} and any other the
 * kernel's default. On loopback the round trip is a few microseconds, so {@code bbr} (the default
 * of many kernels, this project's machines' among them) estimates a bandwidth-delay product of a
 * few kilobytes and holds the window at about 16 segments of 64 KiB: a message over 1 MiB then goes
 * out as acknowledgements come back, some of it sent from the receiver's CPU as it processes them,
 * out of order (spurious retransmissions, {@code ss -ti}: {@code dsack_dups}). {@code reno} and
 * {@code cubic} grow the window to 150-180 segments there, and every connection may ask for
 * {@code reno} ({@code net.ipv4.tcp_allowed_congestion_control} lists it for unprivileged users).
 * Measured in 4 interleaved triples of {@code jspin bench pingpong --fabric netty --bind-to core}
 * on a 2-vCPU machine (system default {@code bbr}, then {@code reno}, then {@code cubic}): the 4 MiB
 * ping-pong at 4.6-5.8 GB/s under {@code bbr} against 7.6-12.5 under either of the others, the
 * 4 MiB vector at 3.8-4.3 against 5.4-6.8, the 4 MiB stream at 4.5-5.2 against 6.9-10.8, latency
 * within the noise. Between hosts the kernel's choice stands: there the round trip is a network's.
 *
 * <p>{@code -Djspin.netty.congestion=NAME} sets {@code NAME} on every connection, {@code system}
 * leaves every connection with the kernel's default.
 */
final class CongestionControl {
    /** The setting that leaves every connection with the kernel's default. */
    static final String SYSTEM = "system";
    /** What connections within one host run unless the setting says otherwise. */
    static final String SAME_HOST_DEFAULT = "reno";
    private static final Logger LOG = LoggerFactory.getLogger(CongestionControl.class);
    private static final Path AVAILABLE = Path.of("/proc/sys/net/ipv4/tcp_available_congestion_control");
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_CONGESTION = 13;
    /** {@code TCP_CA_NAME_MAX}: a name's bytes, its terminating zero included. */
    private static final int NAME_MAX = 16;
    private static final RawUnixChannelOption READ = new RawUnixChannelOption("TCP_CONGESTION", IPPROTO_TCP,
            TCP_CONGESTION, NAME_MAX);

    /** The algorithm's name, or null for the kernel's default. */
    private final String name;
    /** Whether only connections within one host get it. */
    private final boolean sameHostOnly;
    private final RawUnixChannelOption write;

    private CongestionControl(String name, boolean sameHostOnly) {
        this.name = name;
        this.sameHostOnly = sameHostOnly;
        this.write = name == null ? null
                : new RawUnixChannelOption("TCP_CONGESTION", IPPROTO_TCP, TCP_CONGESTION, name.length());
    }

    /**
     * @param value {@code -Djspin.netty.congestion}, or null for the default
     * @throws MpiException ERR_ARG naming the value if it is not {@code system} nor the name of an
     *                      algorithm this kernel has
     */
    static CongestionControl of(String value) {
        return of(value, available());
    }

    /**
     * @param value     the setting, or null for the default
     * @param available the algorithms the kernel has, or null if it cannot say
     */
    static CongestionControl of(String value, List<String> available) {
        if (value == null) {
            return new CongestionControl(SAME_HOST_DEFAULT, true);
        }
        if (value.equals(SYSTEM)) {
            return new CongestionControl(null, false);
        }
        if (!value.matches("[a-z0-9_]{1," + (NAME_MAX - 1) + "}")
                || available != null && !available.contains(value)) {
            throw new MpiException(ErrorClass.ERR_ARG, "jspin.netty.congestion='" + value
                    + "' is neither 'system' nor a TCP congestion control this kernel has"
                    + (available == null ? "" : " (" + String.join(", ", available) + ")"));
        }
        return new CongestionControl(value, false);
    }

    /** @return the algorithms the kernel has, or null if it cannot say (not Linux, say) */
    private static List<String> available() {
        try {
            return Arrays.asList(Files.readString(AVAILABLE).trim().split("\\s+"));
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /** @return the algorithm this setting asks for, or null for the kernel's default */
    String name() {
        return name;
    }

    /** @return whether {@code ch}, connected, gets {@link #name()} */
    boolean appliesTo(SocketChannel ch) {
        return name != null && (!sameHostOnly || sameHost(ch.remoteAddress(), ch.localAddress()));
    }

    /**
     * Sets the algorithm on {@code ch}, a proven connection, if this setting gives it one and the
     * native transport runs. A kernel that refuses it (an algorithm this user may not choose) leaves
     * the connection with its default, with a warning: the data flows either way.
     */
    void apply(SocketChannel ch) {
        if (!EventLoops.EPOLL || !appliesTo(ch)) {
            return;
        }
        ByteBuffer value = ByteBuffer.allocateDirect(name.length());
        value.put(name.getBytes(StandardCharsets.US_ASCII)).flip();
        try {
            ch.config().setOption(write, value);
        } catch (ChannelException e) {
            LOG.warn("TCP congestion control {} refused on the connection to {} ({}); it keeps the kernel's default,"
                    + " see net.ipv4.tcp_allowed_congestion_control", name, ch.remoteAddress(), e.getMessage());
        }
    }

    /** @return the algorithm {@code ch}'s socket runs, as the kernel reports it, or null under NIO */
    static String current(SocketChannel ch) {
        if (!EventLoops.EPOLL) {
            return null;
        }
        ByteBuffer got = ch.config().getOption(READ);
        byte[] bytes = new byte[got.remaining()];
        got.get(bytes);
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.US_ASCII);
    }

    /**
     * @return whether a connection between these two ends stays within this host: its peer is a
     *         loopback address, or the address it was reached at (both ends of a connection to one
     *         of this host's own addresses share it)
     */
    static boolean sameHost(SocketAddress remote, SocketAddress local) {
        if (!(remote instanceof InetSocketAddress r) || !(local instanceof InetSocketAddress l)) {
            return false;
        }
        InetAddress ra = r.getAddress();
        return ra != null && (ra.isLoopbackAddress() || ra.equals(l.getAddress()));
    }
}
