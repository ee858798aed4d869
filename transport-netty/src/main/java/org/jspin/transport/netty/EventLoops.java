package org.jspin.transport.netty;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which Netty transport the fabric's event loops use: native epoll when it loads, NIO otherwise
 * (said once in the log). Each rank has one loop ({@link DrivenIoEventLoop}), driven by the
 * rank's engine, so a process with one rank has one event loop and no thread of Netty's.
 */
final class EventLoops {
    private static final Logger LOG = LoggerFactory.getLogger(EventLoops.class);

    /** Whether the native transport is in use. */
    static final boolean EPOLL = Epoll.isAvailable();
    private static final IoHandlerFactory FACTORY = create();

    private EventLoops() {
    }

    private static IoHandlerFactory create() {
        if (EPOLL) {
            LOG.debug("Netty transport: native epoll");
            return EpollIoHandler.newFactory();
        }
        LOG.info("Netty transport: NIO (native epoll unavailable: {})", String.valueOf(Epoll.unavailabilityCause()));
        return NioIoHandler.newFactory();
    }

    /** @return makes the I/O handler of a rank's event loop */
    static IoHandlerFactory factory() {
        return FACTORY;
    }

    /** @return the server channel class that matches the transport */
    static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** @return the client channel class that matches the transport */
    static Class<? extends SocketChannel> channel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** @return "epoll" or "nio" */
    static String transport() {
        return EPOLL ? "epoll" : "nio";
    }
}
