package org.jspin.transport.netty;

import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioChannelOption;
import jdk.net.ExtendedSocketOptions;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * How a connection finds that its peer's host is gone when nothing tells it: a host that loses its
 * link or power sends no reset, and TCP alone would retransmit for a quarter of an hour. The kernel
 * does the watching, so a rank that is merely slow (a long computation, a GC pause, a stopped
 * process) is never taken for dead: its kernel still acknowledges.
 *
 * <ul>
 * <li>Keepalive: an idle connection is probed after {@code timeout / 2} seconds of silence, then
 * once a second, and closed when the other {@code timeout - timeout / 2} probes go unanswered: about
 * {@code timeout} in all.</li>
 * <li>{@code TCP_USER_TIMEOUT} (native epoll only; Linux): a connection whose sent data stays
 * unacknowledged for {@code timeout} is closed.</li>
 * </ul>
 *
 * A closed connection fails the peer, whose pending requests then fail with ERR_PROC_FAILED.
 *
 * @param timeoutSeconds how long a peer's host may be unreachable before the peer is failed
 */
record PeerLiveness(int timeoutSeconds) {
    /**
     * Assumed: ten seconds, ten times a TCP connection's initial retransmission timeout and far
     * beyond any pause of a live host's kernel, yet short enough that a job notices a lost host
     * while its user waits.
     */
    static final int DEFAULT_SECONDS = 10;

    PeerLiveness {
        if (timeoutSeconds < 2 || timeoutSeconds > 86_400) {
            throw new MpiException(ErrorClass.ERR_ARG, "peer timeout must be 2 to 86400 seconds, got " + timeoutSeconds);
        }
    }

    /** Sets keepalive, and the user timeout where the transport has it, on a peer connection. */
    void apply(SocketChannel ch) {
        int idle = Math.max(1, timeoutSeconds / 2);
        int probes = Math.max(1, timeoutSeconds - idle);
        ch.config().setKeepAlive(true);
        if (EventLoops.EPOLL) {
            ch.config().setOption(EpollChannelOption.TCP_KEEPIDLE, idle);
            ch.config().setOption(EpollChannelOption.TCP_KEEPINTVL, 1);
            ch.config().setOption(EpollChannelOption.TCP_KEEPCNT, probes);
            ch.config().setOption(EpollChannelOption.TCP_USER_TIMEOUT, timeoutSeconds * 1000);
            return;
        }
        // NIO: the JDK's options (Linux and macOS); no user timeout there, so unacknowledged data is
        // left to TCP's own retransmission limit
        ch.config().setOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPIDLE), idle);
        ch.config().setOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPINTERVAL), 1);
        ch.config().setOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPCOUNT), probes);
    }
}
