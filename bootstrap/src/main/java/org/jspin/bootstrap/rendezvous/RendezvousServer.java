package org.jspin.bootstrap.rendezvous;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.bootstrap.EndpointExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of the rendezvous {@link EndpointExchange}: every rank of a job connects, says
 * hello (job id, rank, secret, endpoint), and once all {@code size} ranks have arrived each gets
 * the full endpoint list in rank order; then the server closes those connections. Our own
 * launcher ({@code jspin run}) runs one for its ranks; under Slurm and Open MPI rank 0 runs it
 * (see {@link #servedByRankZero}).
 *
 * <p>Protocol ({@code JSPIN-RDV/2}, {@link Wire}): lines of printable ASCII, at most 4096 bytes
 * each, fields separated by a space and percent-encoded (values may hold ':', '.', spaces, any
 * Unicode):
 * <pre>
 * client: JSPIN-RDV/2 HELLO &lt;job&gt; &lt;rank&gt; &lt;nonce&gt; &lt;endpoint&gt;
 * server: JSPIN-RDV/2 CHALLENGE &lt;nonce&gt; &lt;proof&gt;
 * client: JSPIN-RDV/2 PROOF &lt;proof&gt;
 * server: JSPIN-RDV/2 ACCEPTED
 *         JSPIN-RDV/2 ENDPOINTS &lt;n&gt; / n lines "EP &lt;rank&gt; &lt;endpoint&gt;" / JSPIN-RDV/2 END
 *     or: JSPIN-RDV/2 ERROR &lt;reason&gt;
 * </pre>
 * Each side proves that it holds the job secret with an HMAC over the hello and both nonces
 * ({@link Wire#proof}): the secret never crosses the wire, a recorded hello and proof cannot be
 * replayed (the server's nonce is new each time), and a rank knows the server is its job's.
 *
 * <p>Refusals never crash the server or take a slot: a wrong secret (a proof compared in constant
 * time), a wrong job id, a rank
 * out of range or already taken, a malformed, oversized or late hello each get an {@code ERROR}
 * line naming the problem (never the secret), a logged warning, and a closed connection; the
 * other ranks carry on. A rank that disconnects after its hello but before the list is sent gives
 * its slot back (it may reconnect). If the {@code size} ranks are not all there when the server's
 * timeout passes, every waiting rank gets an {@code ERROR} naming the missing ranks.
 *
 * <p>The endpoints travel in clear (they are no secret); the secret does not travel at all.
 */
public final class RendezvousServer implements AutoCloseable {
    /** How long a server waits for all ranks when {@link #start(String, int, String, String, int)} is not told. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final Logger LOG = LoggerFactory.getLogger(RendezvousServer.class);
    /** How long {@link #close()} lets an in-flight endpoint broadcast finish. */
    private static final long BROADCAST_GRACE_MILLIS = 5_000;

    private final ServerSocket listener;
    private final String address;
    private final String jobId;
    private final int size;
    private final Duration timeout;
    private final long deadline;
    private final ServerHandshake handshake;
    private final Roster roster;
    /** Counted down once the list or the failure has been written to every registered rank. */
    private final CountDownLatch done = new CountDownLatch(1);
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private final Thread acceptor;
    private final Thread watchdog;

    private RendezvousServer(ServerSocket listener, String address, String jobId, String secret, int size, Duration timeout) {
        this.listener = listener;
        this.address = address;
        this.jobId = jobId;
        this.handshake = new ServerHandshake(secret.getBytes(StandardCharsets.UTF_8), jobId, size);
        this.size = size;
        this.timeout = timeout;
        this.deadline = System.nanoTime() + timeout.toNanos();
        this.roster = new Roster(size);
        this.acceptor = Thread.ofPlatform().daemon().name("jspin-rendezvous-accept-" + address).unstarted(this::acceptLoop);
        this.watchdog = Thread.ofVirtual().name("jspin-rendezvous-timeout-" + address).unstarted(this::watch);
    }

    /**
     * Starts a server with the {@link #DEFAULT_TIMEOUT}.
     *
     * @see #start(String, int, String, String, int, Duration)
     */
    public static RendezvousServer start(String bindHost, int port, String jobId, String secret, int size) {
        return start(bindHost, port, jobId, secret, size, DEFAULT_TIMEOUT);
    }

    /**
     * Binds and starts serving.
     *
     * @param bindHost where to listen ({@code 127.0.0.1} for a single-machine job)
     * @param port     the port, 0 for any free one (then read it from {@link #address()})
     * @param jobId    the job every hello must name
     * @param secret   the job secret every hello must present (at least 16 characters)
     * @param size     how many ranks take part, in [1, 2^20]
     * @param timeout  how long after start the server waits for all ranks before failing the exchange
     * @return the running server
     * @throws MpiException ERR_ARG for a bad argument (naming it), ERR_OTHER if the address cannot be bound
     */
    public static RendezvousServer start(String bindHost, int port, String jobId, String secret, int size, Duration timeout) {
        if (bindHost == null || bindHost.isBlank()) {
            throw new MpiException(ErrorClass.ERR_ARG, "rendezvous bind host must not be blank, got '" + bindHost + "'");
        }
        if (port < 0 || port > 65535) {
            throw new MpiException(ErrorClass.ERR_ARG, "rendezvous port must be in [0, 65535], got " + port);
        }
        Wire.checkJobAndSecret(jobId, secret);
        checkSize(size);
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new MpiException(ErrorClass.ERR_ARG, "rendezvous timeout must be positive, got " + timeout);
        }
        ServerSocket listener = ListenerBinding.bind(bindHost, port, size);
        RendezvousServer server = new RendezvousServer(listener, Wire.HostPort.format(bindHost, listener.getLocalPort()),
                jobId, secret, size, timeout);
        server.acceptor.start();
        server.watchdog.start();
        LOG.debug("rendezvous {} for job '{}' waiting for {} ranks", server.address, jobId, size);
        return server;
    }

    /**
     * Rendezvous the way Slurm and Open MPI jobs do it: they start every rank at once and give none
     * of them a server, so rank 0 serves one itself at an agreed {@code address} (for example
     * {@code <first node of the allocation>:<port derived from the job id>}) and every rank,
     * rank 0 included, is a client of it.
     *
     * <p>For rank 0 the returned exchange, when called, binds a {@link RendezvousServer} on the
     * address's host and port (with the exchange's timeout as the server's), takes part as a
     * client, waits until the list has been sent to every rank, and closes the server. For any
     * other rank it is a plain {@link RendezvousClient}; those ranks may start first, because the
     * client retries a refused connection until its timeout.
     *
     * @param address {@code host:port} of the rendezvous; rank 0 must be running on that host
     * @param jobId   the job id every rank agrees on
     * @param secret  the job secret (at least 16 characters)
     * @param size    how many ranks the job has
     * @param rank    this rank, in [0, size); {@code exchange} must be called with the same rank
     * @return the exchange for this rank
     * @throws MpiException ERR_ARG for a bad address, job id, secret, size or rank
     */
    public static EndpointExchange servedByRankZero(String address, String jobId, String secret, int size, int rank) {
        Wire.HostPort at = Wire.HostPort.parse(address, 1);
        Wire.checkJobAndSecret(jobId, secret);
        checkSize(size);
        if (rank < 0 || rank >= size) {
            throw new MpiException(ErrorClass.ERR_ARG, "rank must be in [0, " + size + "), got " + rank);
        }
        RendezvousClient client = new RendezvousClient(address, jobId, secret);
        return rank == 0 ? new RankZeroRendezvous(at, jobId, secret, size, client) : client;
    }

    private static void checkSize(int size) {
        if (size < 1 || size > Wire.MAX_RANKS) {
            throw new MpiException(ErrorClass.ERR_ARG, "rendezvous size must be in [1, " + Wire.MAX_RANKS + "], got " + size);
        }
    }

    /** @return where the server listens, {@code host:port}, with the port actually bound */
    public String address() {
        return address;
    }

    /** @return the ranks that have not (or no longer) said hello, in order; empty once the list went out. For diagnostics. */
    public List<Integer> missingRanks() {
        return roster.missing();
    }

    /**
     * Waits for the exchange to finish.
     *
     * @param wait how long to wait
     * @return every rank's endpoint in rank order, once it has been sent to all ranks
     * @throws MpiException ERR_OTHER naming the server and the reason if the exchange failed (timed
     *                      out, closed) or is still waiting for ranks (named) when {@code wait} passes
     */
    public List<String> awaitEndpoints(Duration wait) {
        try {
            if (!done.await(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new MpiException(ErrorClass.ERR_OTHER, "rendezvous " + address + " still waiting for ranks "
                        + missingRanks() + " after " + wait.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiException(ErrorClass.ERR_OTHER, "interrupted while waiting for rendezvous " + address, e);
        }
        // done: the exchange has completed or failed for good
        List<String> endpoints = roster.endpoints();
        if (endpoints != null) {
            return endpoints;
        }
        throw new MpiException(ErrorClass.ERR_OTHER, "rendezvous " + address + " failed: " + roster.failure());
    }

    /**
     * Stops listening. Ranks still waiting get an {@code ERROR} saying the server closed; a list
     * already being sent is given a few seconds to finish.
     */
    @Override
    public void close() {
        closed = true;
        Sockets.closeQuietly(listener);
        fail("the rendezvous server was closed before ranks " + missingRanks() + " arrived");
        try {
            done.await(BROADCAST_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watchdog.interrupt();
        for (Socket s : open) {
            Sockets.closeQuietly(s);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("rendezvous {}: accept failed, no longer accepting ranks: {}", address, e.toString());
                    fail("the rendezvous server stopped accepting connections: " + e);
                }
                return;
            }
            open.add(s);
            Thread.ofVirtual().name("jspin-rendezvous-" + s.getRemoteSocketAddress()).start(() -> serve(s));
        }
    }

    /** Fails the exchange when the timeout passes before every rank has arrived. */
    private void watch() {
        try {
            if (!done.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                List<Integer> missing = missingRanks();
                if (fail("timed out after " + timeout.toMillis() + " ms waiting for ranks " + missing)) {
                    LOG.warn("rendezvous {} for job '{}': timed out after {} ms; ranks {} never arrived",
                            address, jobId, timeout.toMillis(), missing);
                }
            }
        } catch (InterruptedException e) {
            // closed: close() fails the exchange itself
        }
    }

    /** One connection: the handshake, then refuse it or register it, then watch for the rank going away. */
    private void serve(Socket s) {
        String peer = String.valueOf(s.getRemoteSocketAddress());
        Registration reg = null;
        try {
            s.setTcpNoDelay(true);
            Wire.LineReader in = new Wire.LineReader(s);
            Hello hello;
            switch (handshake.run(in, s.getOutputStream())) {
                case ServerHandshake.Refused r -> {
                    refuse(s, peer, r.reason());
                    return;
                }
                case ServerHandshake.Closed c -> {
                    LOG.debug("rendezvous {}: {} closed {}", address, peer, c.when());
                    return;
                }
                case ServerHandshake.Proven p -> hello = p.hello();
            }
            reg = new Registration(hello.rank(), hello.endpoint(), s);
            Roster.Admission admission = roster.admit(reg);
            if (admission.refusal() != null) {
                reg = null;
                refuse(s, peer, admission.refusal());
                return;
            }
            if (admission.everyone() != null) {
                LOG.debug("rendezvous {} for job '{}': all {} ranks arrived", address, jobId, size);
                broadcast(admission.everyone(), Wire.endpointsMessage(roster.endpoints()));
            }
            // a registered rank has nothing more to say: any byte or the end of stream means it went away
            in.noDeadline();
            int b = in.read();
            unregister(reg, b < 0 ? "disconnected" : "sent data after its hello");
        } catch (IOException e) {
            if (reg != null) {
                unregister(reg, "connection failed: " + e.getMessage());
            } else {
                LOG.debug("rendezvous {}: connection from {} failed: {}", address, peer, e.toString());
            }
        } finally {
            // a finished exchange's registered sockets are closed by whoever sends them the outcome
            if (reg == null || !roster.handedOver(reg)) {
                if (reg != null) {
                    unregister(reg, "lost its connection handler");
                }
                Sockets.closeQuietly(s);
                open.remove(s);
            }
        }
    }

    /** Frees the slot of a rank that went away before the list was sent, so it may reconnect. */
    private void unregister(Registration reg, String why) {
        if (roster.release(reg)) {
            LOG.warn("rendezvous {} for job '{}': rank {} ({}) {} before all ranks arrived; its slot is free again",
                    address, jobId, reg.rank(), reg.socket().getRemoteSocketAddress(), why);
        }
    }

    /** Fails an open exchange: every registered rank gets {@code reason}. @return whether this call failed it */
    private boolean fail(String reason) {
        List<Registration> waiting = roster.fail(reason);
        if (waiting == null) {
            return false;
        }
        broadcast(waiting, Wire.errorLine(reason));
        return true;
    }

    /** Writes {@code message} to every registration (in parallel: one slow reader must not hold up the rest), then closes them. */
    private void broadcast(List<Registration> to, byte[] message) {
        List<Thread> writers = new ArrayList<>(to.size());
        for (Registration r : to) {
            writers.add(Thread.ofVirtual().start(() -> {
                try {
                    OutputStream out = r.socket().getOutputStream();
                    out.write(message);
                    out.flush();
                } catch (IOException e) {
                    LOG.warn("rendezvous {}: could not send to rank {} ({}): {}", address, r.rank(),
                            r.socket().getRemoteSocketAddress(), e.toString());
                } finally {
                    Sockets.closeQuietly(r.socket());
                    open.remove(r.socket());
                }
            }));
        }
        try {
            for (Thread t : writers) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            done.countDown();
        }
    }

    /** Refuses a connection: logs why, replies with an ERROR line and closes ({@link Sockets#refuse}). */
    private void refuse(Socket s, String peer, String reason) {
        LOG.warn("rendezvous {} for job '{}': refused {}: {}", address, jobId, peer, reason);
        try {
            Sockets.refuse(s, reason);
        } catch (IOException e) {
            LOG.debug("rendezvous {}: could not send the refusal to {}: {}", address, peer, e.toString());
        } finally {
            open.remove(s);
        }
    }

    @Override
    public String toString() {
        return "RendezvousServer[" + address + ", job '" + jobId + "', " + roster + "]";
    }
}
