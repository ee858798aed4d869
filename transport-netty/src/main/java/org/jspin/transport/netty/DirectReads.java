package org.jspin.transport.netty;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollSocketChannel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an epoll channel's socket now, through Netty's own read path, as if {@code epoll_wait} had
 * just reported it readable: the frames, the landing reads, the end of the stream and read errors
 * are handled exactly as on a readiness event. A rank with a single peer polls its one socket this
 * way rather than asking epoll which sockets are ready and then reading: one system call per poll
 * instead of two whenever data is there, and a cheaper one when it is not.
 *
 * <p>Netty keeps that read path ({@code AbstractEpollUnsafe.epollInReady}) package-private, so it
 * is reached through a private lookup, which the class path (one unnamed module) allows; if a
 * Netty version no longer has it, {@link #AVAILABLE} is false (said once in the log) and the
 * fabric polls through epoll as before.
 */
final class DirectReads {
    private static final Logger LOG = LoggerFactory.getLogger(DirectReads.class);
    private static final MethodHandle EPOLL_IN_READY = find();
    /** Whether {@link #read} works with this Netty. */
    static final boolean AVAILABLE = EPOLL_IN_READY != null;

    private DirectReads() {
    }

    private static MethodHandle find() {
        if (!EventLoops.EPOLL) {
            return null;
        }
        try {
            Class<?> unsafe = Class.forName("io.netty.channel.epoll.AbstractEpollChannel$AbstractEpollUnsafe");
            MethodHandle h = MethodHandles.privateLookupIn(unsafe, MethodHandles.lookup())
                    .findVirtual(unsafe, "epollInReady", MethodType.methodType(void.class));
            return h.asType(MethodType.methodType(void.class, Channel.Unsafe.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.info("reading sockets directly is unavailable with this Netty ({}); polling through epoll", e.toString());
            return null;
        }
    }

    /** @return whether {@code ch} can be read with {@link #read} */
    static boolean supports(Channel ch) {
        return AVAILABLE && ch instanceof EpollSocketChannel;
    }

    /**
     * Reads what {@code ch}'s socket holds into its pipeline (nothing if it holds nothing). On the
     * channel's event loop, for a channel that {@link #supports} it, is active and reads
     * automatically (a read paused for back-pressure must stay paused).
     */
    static void read(Channel ch) {
        try {
            EPOLL_IN_READY.invokeExact(ch.unsafe());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("reading " + ch + " directly", t);
        }
    }
}
