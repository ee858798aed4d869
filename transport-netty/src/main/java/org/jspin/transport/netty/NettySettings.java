package org.jspin.transport.netty;

import java.util.List;

import org.jspin.settings.Setting;
import org.jspin.settings.Settings;

/**
 * The Netty fabric's settings, read once as a fabric opens. Why each default is what it is: the
 * javadoc of the constant it names here and in {@link SocketOptions}; the measurements behind
 * them in docs.
 *
 * @param copyLimit          payloads up to this many bytes are copied behind the header
 * @param landing            payloads the engine has a place for are read straight into it
 * @param congestion         the TCP congestion control between ranks of one host, as given (null: the fabric's default)
 * @param rtsPayload         bytes of a rendezvous message that travel with its RTS
 * @param wholeData          up to how many bytes a message sent in place goes as one DATA packet
 * @param flushBytes         up to how many bytes of DATA sent in place a link holds back to write at once
 * @param directReads        a rank with one peer reads its socket directly
 * @param sendBuffer         the socket send buffer (0: the kernel's autotuning)
 * @param receiveBuffer      the socket receive buffer (0: the kernel's autotuning)
 * @param peerTimeoutSeconds how long a silent peer's host may stay unreachable before its rank counts as failed
 */
public record NettySettings(int copyLimit, boolean landing, String congestion, int rtsPayload, int wholeData,
                            int flushBytes, boolean directReads, int sendBuffer, int receiveBuffer,
                            int peerTimeoutSeconds) {
    private static final int GIB = 1 << 30;

    /**
     * Bytes of a rendezvous message that travel with its RTS ({@code -Djspin.netty.rtsPayload}):
     * 64 KiB, the fragment Open MPI's TCP transport sends with its rendezvous request (its
     * {@code btl_tcp_eager_limit} default). Over TCP a round trip costs more than a copy of 64 KiB.
     */
    static final int DEFAULT_RTS_PAYLOAD = 64 << 10;
    /**
     * Up to how many bytes the data phase of a rendezvous message sent from its buffer in place
     * goes as one DATA packet rather than in chunks ({@code -Djspin.netty.wholeData}; 0: always
     * chunks): the largest payload, 1 MiB. See {@link NettyFabric#preferredWholeData} for what it measured.
     */
    static final int DEFAULT_WHOLE_DATA = NettyFabric.MAX_PAYLOAD;
    /**
     * Up to how many payload bytes of DATA packets sent in place a link holds back, to write them in
     * one system call ({@code -Djspin.netty.flushBytes}; 0: every packet at once): 2 MiB, four
     * chunks, since loopback TCP moves more per byte in larger writes (docs/PERFORMANCE.md). They go
     * at the end of the core's round ({@link NettyFabric#flush}) or at the next
     * {@link NettyFabric#poll}; any other packet is written at once, with whatever was held before it.
     */
    static final int DEFAULT_FLUSH_BYTES = 2 << 20;
    /**
     * Payload bytes per rendezvous data packet unless the NIC's settings say otherwise:
     * {@link NettyFabric#preferredChunkSize}.
     */
    static final int DEFAULT_CHUNK_SIZE = 512 << 10;
    /**
     * Messages up to this size go eagerly over TCP: 64 KiB, Open MPI's {@code btl_tcp_eager_limit}.
     * A 64 KiB message then costs no CTS, whose system calls and processing sat on both ranks'
     * paths (see {@link NettyFabric#preferredEagerLimit} for what it measured).
     */
    static final int DEFAULT_EAGER_LIMIT = 64 << 10;
    /**
     * Whether a rank with a single peer polls that peer's socket directly ({@link DirectReads}) in
     * most polls rather than through {@code epoll_wait} ({@code -Djspin.netty.directReads=false}:
     * always through epoll): it measured faster for latency and the 4 MiB cases (docs/PERFORMANCE.md).
     */
    static final boolean DEFAULT_DIRECT_READS = true;

    /** {@code -Djspin.netty.copyLimit}. */
    public static final Setting<Long> COPY_LIMIT = Setting.number("jspin.netty.copyLimit", 16 << 10, 0,
            NettyFabric.MAX_PAYLOAD, "payloads up to this many bytes are copied behind the header, not written from their memory");
    /** {@code -Djspin.netty.landing}. */
    public static final Setting<Boolean> LANDING = Setting.flag("jspin.netty.landing", true,
            "payloads the engine has a place for are read from the socket straight into it");
    /** {@code -Djspin.netty.congestion}: an algorithm the kernel has, or {@code system}; checked as the fabric opens. */
    public static final Setting<String> CONGESTION = Setting.text("jspin.netty.congestion", null,
            "TCP congestion control between ranks of one host (default reno; system: the kernel's)");
    /** {@code -Djspin.netty.rtsPayload}. */
    public static final Setting<Long> RTS_PAYLOAD = Setting.number("jspin.netty.rtsPayload", DEFAULT_RTS_PAYLOAD,
            0, NettyFabric.MAX_PAYLOAD, "bytes of a rendezvous message that travel with its RTS (Open MPI's first TCP fragment)");
    /** {@code -Djspin.netty.wholeData}. */
    public static final Setting<Long> WHOLE_DATA = Setting.number("jspin.netty.wholeData", DEFAULT_WHOLE_DATA,
            0, NettyFabric.MAX_PAYLOAD, "up to how many bytes a message sent in place goes as one DATA packet");
    /** {@code -Djspin.netty.flushBytes}. */
    public static final Setting<Long> FLUSH_BYTES = Setting.number("jspin.netty.flushBytes", DEFAULT_FLUSH_BYTES,
            0, GIB, "bytes of DATA sent in place a link holds back to write at once");
    /** {@code -Djspin.netty.directReads}. */
    public static final Setting<Boolean> DIRECT_READS = Setting.flag("jspin.netty.directReads",
            DEFAULT_DIRECT_READS, "a rank with one peer reads its socket directly");
    /** {@code -Djspin.netty.sndbuf}. */
    public static final Setting<Long> SEND_BUFFER = Setting.number("jspin.netty.sndbuf", 4 << 20, 0, GIB,
            "socket send buffer bytes (0: the kernel's autotuning)");
    /** {@code -Djspin.netty.rcvbuf}. */
    public static final Setting<Long> RECEIVE_BUFFER = Setting.number("jspin.netty.rcvbuf", 4 << 20, 0, GIB,
            "socket receive buffer bytes (0: the kernel's autotuning)");
    /** {@code -Djspin.peer.timeout} or {@code JSPIN_PEER_TIMEOUT}. */
    public static final Setting<Long> PEER_TIMEOUT = Setting.number("jspin.peer.timeout", PeerLiveness.DEFAULT_SECONDS,
            2, 86_400, "seconds a silent peer's host may stay unreachable before its rank counts as failed")
            .orEnvironment("JSPIN_PEER_TIMEOUT");
    /** Every setting of this layer, for {@code jspin config}. */
    public static final List<Setting<?>> ALL = List.of(COPY_LIMIT, LANDING, CONGESTION, RTS_PAYLOAD, WHOLE_DATA,
            FLUSH_BYTES, DIRECT_READS, SEND_BUFFER, RECEIVE_BUFFER, PEER_TIMEOUT);

    /**
     * @return the settings in {@code settings}
     * @throws org.jspin.error.MpiException ERR_ARG naming the property and the value if one is malformed
     */
    public static NettySettings from(Settings settings) {
        return new NettySettings(bytes(settings, COPY_LIMIT), settings.get(LANDING), settings.get(CONGESTION),
                bytes(settings, RTS_PAYLOAD), bytes(settings, WHOLE_DATA), bytes(settings, FLUSH_BYTES),
                settings.get(DIRECT_READS), bytes(settings, SEND_BUFFER), bytes(settings, RECEIVE_BUFFER),
                bytes(settings, PEER_TIMEOUT));
    }

    private static int bytes(Settings settings, Setting<Long> setting) {
        return Math.toIntExact(settings.get(setting)); // every range above fits an int
    }

    /**
     * @return the congestion control between ranks of one host this setting gives
     * @throws org.jspin.error.MpiException ERR_ARG if the kernel lacks the algorithm it names
     */
    CongestionControl congestionControl() {
        return CongestionControl.of(congestion);
    }
}
