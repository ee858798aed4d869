package org.jspin.transport.netty;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.transport.netty.join.NettyLaunch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joining a job's fabric, apart from what the fabric does once joined: listen where the launch says,
 * learn every rank's endpoint through the launch's exchange, connect to each lower rank and accept
 * each higher one, every connection proving itself with the job secret ({@link Handshake}). Each
 * proven connection is handed to the fabric ({@link Joined}), which puts its data path on it. Runs
 * on the joining thread, which drives the fabric's event loop meanwhile.
 *
 * <p>A rank whose endpoint the exchange gives as null is reached some other way (shared memory,
 * when it shares this rank's host): no connection is made or awaited with it. Every rank sees the
 * same list, so both ends of a pair agree.
 */
final class FabricJoin {
    private static final Logger LOG = LoggerFactory.getLogger(FabricJoin.class);

    /** Told of each proven connection, on the event loop's thread. */
    interface Joined {
        void joined(ChannelHandlerContext ctx, int peer);
    }

    private final int rank;
    private final int size;
    private final String jobId;
    private final NettyLaunch launch;
    private final DrivenIoEventLoop loop;
    private final SocketOptions options;
    private final Joined joined;
    private final Channel[] proven;
    /** Connections proven so far (counted on the joining thread, which drives the loop). */
    private int connected;
    /** Peers to connect with: those with an endpoint ({@code size - 1} until the exchange says). */
    private int awaited;
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final List<Channel> accepted = new ArrayList<>();
    private Channel server;

    FabricJoin(int rank, int size, String jobId, NettyLaunch launch, DrivenIoEventLoop loop, SocketOptions options,
               Joined joined) {
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
        this.launch = launch;
        this.loop = loop;
        this.options = options;
        this.joined = joined;
        this.proven = new Channel[size];
        this.awaited = size - 1;
    }

    /**
     * Listens, exchanges endpoints, connects, and waits for every peer.
     *
     * @throws MpiException ERR_ARG for a port beyond 65535; ERR_OTHER naming what failed (bind,
     *                      exchange, a refused handshake, ranks that never connected in time)
     */
    void run() {
        long timeoutMillis = launch.connectTimeout().toMillis();
        long deadline = System.nanoTime() + launch.connectTimeout().toNanos();
        ServerBootstrap sb = new ServerBootstrap()
                .group(loop)
                .channel(EventLoops.serverChannel())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        synchronized (accepted) {
                            accepted.add(ch);
                        }
                        options.peer(ch);
                        ch.pipeline().addLast("handshake", Handshake.accepting(rank, jobId, launch.secret(),
                                timeoutMillis, new Arrival(-1)));
                    }
                });
        options.listener(sb);
        String host = launch.listenHost();
        int base = launch.basePort();
        int port = base == 0 ? 0 : base + rank;
        if (port > 65535) {
            throw new MpiException(ErrorClass.ERR_ARG, "rank " + rank + " would listen on port " + port + " ("
                    + portRule() + "), beyond 65535: give JSPIN_BIND a lower port, or none");
        }
        ChannelFuture bound = sb.bind(host, port);
        driveUntil(loop, bound::isDone, deadline);
        if (!bound.isSuccess()) {
            throw cannotListen(host, port, bound.cause());
        }
        server = bound.channel();
        InetSocketAddress local = (InetSocketAddress) server.localAddress();
        String me = host + ":" + local.getPort();
        List<String> endpoints = launch.exchange().exchange(rank, me, launch.connectTimeout());
        if (endpoints.size() != size) {
            throw new MpiException(ErrorClass.ERR_OTHER, "the endpoint exchange returned " + endpoints.size()
                    + " endpoints for a job of " + size + " ranks");
        }
        awaited = 0;
        for (int peer = 0; peer < size; peer++) {
            if (peer != rank && endpoints.get(peer) != null) {
                awaited++;
                if (peer < rank) {
                    connect(peer, endpoints.get(peer), timeoutMillis);
                }
            }
        }
        driveUntil(loop, () -> connected == awaited || failure.get() != null, deadline);
        if (failure.get() != null) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " could not join job " + jobId + ": "
                    + failure.get());
        }
        if (connected < awaited) {
            List<Integer> missing = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                if (r != rank && proven[r] == null && endpoints.get(r) != null) {
                    missing.add(r);
                }
            }
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " of job " + jobId + ": no connection with ranks "
                    + missing + " within " + launch.connectTimeout().toMillis() + " ms");
        }
        LOG.debug("rank {}: connected to {} peers over {} ({})", rank, awaited, EventLoops.transport(), me);
    }

    /**
     * Starts closing the listener and every accepted connection that did not become a peer's.
     *
     * @param isPeer whether a channel is a peer's (the fabric closes those itself)
     * @return the closes started
     */
    List<ChannelFuture> close(Predicate<Channel> isPeer) {
        List<ChannelFuture> closing = new ArrayList<>();
        synchronized (accepted) {
            for (Channel ch : accepted) {
                if (ch.isOpen() && !isPeer.test(ch)) {
                    closing.add(ch.close());
                }
            }
        }
        if (server != null) {
            closing.add(server.close());
        }
        return closing;
    }

    /** Runs {@code loop} on this thread until {@code done} or the deadline ({@link System#nanoTime()}). */
    static void driveUntil(DrivenIoEventLoop loop, BooleanSupplier done, long deadline) {
        while (!done.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            loop.run(Math.min(left, TimeUnit.MILLISECONDS.toNanos(10)));
        }
    }

    /**
     * Why the listener could not bind, in words: the address and port, and the system's reason
     * without the exception's class (Netty's epoll says {@code bind(..) failed: Address already in
     * use}, NIO a {@link java.net.BindException}); a taken port says so and what to do about it.
     */
    private MpiException cannotListen(String host, int port, Throwable cause) {
        String at = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + (port == 0 ? " (any free port)" : ":" + port);
        String why;
        if (cause instanceof java.nio.channels.UnresolvedAddressException) {
            why = "the host name does not resolve";
        } else if (cause != null && cause.getMessage() != null) {
            why = cause.getMessage();
            int failed = why.indexOf("failed: ");
            if (failed >= 0 && why.startsWith("bind(")) {
                why = why.substring(failed + "failed: ".length());
            }
        } else {
            why = String.valueOf(cause);
        }
        if (why.toLowerCase(Locale.ROOT).contains("already in use")) {
            why = "the port is already in use by another socket"
                    + (port == 0 ? "" : " (" + portRule() + "); free it, give JSPIN_BIND other ports, or no port for any"
                    + " free one");
        }
        return new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " cannot listen on " + at + ": " + why, cause);
    }

    /** @return how this rank's port follows from the bind address, for messages */
    private String portRule() {
        int base = launch.basePort();
        return "JSPIN_BIND=" + launch.bindHost().strip() + " gives rank r port " + base + " + r";
    }

    private void connect(int peer, String endpoint, long timeoutMillis) {
        int colon = endpoint.lastIndexOf(':');
        int port;
        try {
            port = Integer.parseInt(endpoint.substring(colon + 1));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + peer + "'s endpoint '" + endpoint
                    + "' is not host:port");
        }
        String host = endpoint.substring(0, Math.max(colon, 0));
        new Bootstrap()
                .group(loop)
                .channel(EventLoops.channel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeoutMillis))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        options.peer(ch); // registered, not yet connected: the buffer sizes still count
                        ch.pipeline().addLast("handshake", Handshake.connecting(rank, peer, jobId, launch.secret(),
                                timeoutMillis, new Arrival(peer)));
                    }
                })
                .connect(host, port)
                .addListener((ChannelFutureListener) f -> {
                    if (!f.isSuccess()) {
                        failure.compareAndSet(null, "cannot connect to rank " + peer + " at " + endpoint + ": "
                                + f.cause());
                    }
                });
    }

    /** The handshake's outcome on one connection (peer -1: an accepted one, whose rank the hello says). */
    private final class Arrival implements Handshake.Outcome {
        private final int expected;

        Arrival(int expected) {
            this.expected = expected;
        }

        @Override
        public String admissible(int peer) {
            if (peer < 0 || peer >= size) {
                return "rank " + peer + " is outside the job's [0, " + size + ")";
            }
            if (peer <= rank) {
                return "rank " + peer + " must be connected to, not connect (only higher ranks connect to rank " + rank
                        + ")";
            }
            if (proven[peer] != null) {
                return "rank " + peer + " is already connected";
            }
            return null;
        }

        @Override
        public void accepted(ChannelHandlerContext ctx, int peer) {
            proven[peer] = ctx.channel();
            joined.joined(ctx, peer);
            connected++;
        }

        @Override
        public void failed(String reason) {
            failure.compareAndSet(null, reason);
        }
    }
}
