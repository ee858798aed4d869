package org.jspin.transport.netty;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one event loop of this process, shared by every rank it hosts: native epoll when it loads,
 * NIO otherwise (said once in the log). Its thread is a daemon, so it never keeps a finished
 * program alive.
 */
final class EventLoops {
    private static final Logger LOG = LoggerFactory.getLogger(EventLoops.class);

    /** Whether the native transport is in use. */
    static final boolean EPOLL = Epoll.isAvailable();
    private static final EventLoopGroup GROUP = create();

    private EventLoops() {
    }

    private static EventLoopGroup create() {
        IoHandlerFactory factory;
        if (EPOLL) {
            factory = EpollIoHandler.newFactory();
            LOG.debug("Netty transport: native epoll");
        } else {
            factory = NioIoHandler.newFactory();
            LOG.info("Netty transport: NIO (native epoll unavailable: {})", String.valueOf(Epoll.unavailabilityCause()));
        }
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("jspin-netty", true), factory);
    }

    /** @return the process's event loop group (one thread) */
    static EventLoopGroup group() {
        return GROUP;
    }

    /** @return the server channel class that matches the group */
    static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** @return the client channel class that matches the group */
    static Class<? extends SocketChannel> channel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** @return "epoll" or "nio" */
    static String transport() {
        return EPOLL ? "epoll" : "nio";
    }
}
