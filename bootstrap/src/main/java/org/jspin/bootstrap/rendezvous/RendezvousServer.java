package org.jspin.bootstrap.rendezvous;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
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
import org.jspin.bootstrap.SecretProof;
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
    /** How long binding a fixed port is retried while it is busy. */
    private static final long BIND_RETRY_MILLIS = 1000;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final Logger LOG = LoggerFactory.getLogger(RendezvousServer.class);
    /** A connection must say hello this soon; a silent one is dropped rather than holding a thread. */
    private static final long HELLO_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** After an ERROR, how much of a refused peer's unread input is drained (so the close does not reset the reply away). */
    private static final int DRAIN_BYTES = 64 * 1024;
    private static final int DRAIN_MILLIS = 200;
    /** How long {@link #close()} lets an in-flight endpoint broadcast finish. */
    private static final long BROADCAST_GRACE_MILLIS = 5_000;

    private enum State { OPEN, COMPLETE, FAILED }

    /** A rank whose hello was accepted: its connection stays open until the list (or an error) is sent. */
    private record Registration(int rank, String endpoint, Socket socket) {
    }

    private final ServerSocket listener;
    private final String address;
    private final String jobId;
    private final byte[] secret;
    private final int size;
    private final Duration timeout;
    private final long deadline;

    private final Object lock = new Object();
    private final Registration[] slots;
    private int arrived;
    private State state = State.OPEN;
    private String failure;
    private List<String> endpoints;
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
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
        this.size = size;
        this.timeout = timeout;
        this.deadline = System.nanoTime() + timeout.toNanos();
        this.slots = new Registration[size];
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
        checkJobAndSecret(jobId, secret);
        if (size < 1 || size > Wire.MAX_RANKS) {
            throw new MpiException(ErrorClass.ERR_ARG, "rendezvous size must be in [1, " + Wire.MAX_RANKS + "], got " + size);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new MpiException(ErrorClass.ERR_ARG, "rendezvous timeout must be positive, got " + timeout);
        }
        ServerSocket listener = null;
        try {
            // a fixed port can be briefly held by a client of this very job that dialled it before we
            // listened and met itself (TCP self-connect; the client drops such a socket at once)
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(port == 0 ? 0 : BIND_RETRY_MILLIS);
            while (true) {
                listener = new ServerSocket();
                // rank 0 rebinds a fixed port job after job: do not let the last job's TIME_WAIT refuse it
                listener.setReuseAddress(true);
                try {
                    listener.bind(new InetSocketAddress(InetAddress.getByName(bindHost), port), Math.clamp(size, 50, 4096));
                    break;
                } catch (java.net.BindException busy) {
                    closeQuietly(listener);
                    if (System.nanoTime() > until) {
                        throw busy;
                    }
                    Thread.sleep(10);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiException(ErrorClass.ERR_OTHER, "interrupted while binding the rendezvous server to "
                    + bindHost + ":" + port);
        } catch (IOException e) {
            closeQuietly(listener);
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot bind the rendezvous server to "
                    + Wire.HostPort.format(bindHost, port) + ": " + e.getMessage(), e);
        }
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
        checkJobAndSecret(jobId, secret);
        if (size < 1 || size > Wire.MAX_RANKS) {
            throw new MpiException(ErrorClass.ERR_ARG, "rendezvous size must be in [1, " + Wire.MAX_RANKS + "], got " + size);
        }
        if (rank < 0 || rank >= size) {
            throw new MpiException(ErrorClass.ERR_ARG, "rank must be in [0, " + size + "), got " + rank);
        }
        RendezvousClient client = new RendezvousClient(address, jobId, secret);
        if (rank != 0) {
            return client;
        }
        return (r, endpoint, timeout) -> {
            if (r != 0) {
                throw new MpiException(ErrorClass.ERR_ARG, "this exchange serves the rendezvous as rank 0, called as rank " + r);
            }
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new MpiException(ErrorClass.ERR_ARG, "rendezvous timeout must be positive, got " + timeout);
            }
            long start = System.nanoTime();
            try (RendezvousServer server = start(at.host(), at.port(), jobId, secret, size, timeout)) {
                List<String> all;
                try {
                    all = client.exchange(0, endpoint, timeout);
                } catch (MpiException e) {
                    // our client's deadline and our server's are the same: say who was missing either way
                    List<Integer> missing = server.missingRanks();
                    if (missing.isEmpty() || e.reason().contains("waiting for ranks")) {
                        throw e;
                    }
                    throw new MpiException(e.errorClass(), e.reason() + "; ranks " + missing + " never arrived", e);
                }
                // our copy can arrive before the others' are written: closing now could cut them off
                Duration left = timeout.minusNanos(System.nanoTime() - start);
                server.awaitEndpoints(left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left);
                return all;
            }
        };
    }

    /** @return where the server listens, {@code host:port}, with the port actually bound */
    public String address() {
        return address;
    }

    /** @return the ranks that have not (or no longer) said hello, in order; empty once the list went out. For diagnostics. */
    public List<Integer> missingRanks() {
        synchronized (lock) {
            return missingLocked();
        }
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
        synchronized (lock) {
            if (state == State.COMPLETE) {
                return endpoints;
            }
            throw new MpiException(ErrorClass.ERR_OTHER, "rendezvous " + address + " failed: " + failure);
        }
    }

    /**
     * Stops listening. Ranks still waiting get an {@code ERROR} saying the server closed; a list
     * already being sent is given a few seconds to finish.
     */
    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        fail("the rendezvous server was closed before ranks " + missingRanks() + " arrived");
        try {
            done.await(BROADCAST_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watchdog.interrupt();
        for (Socket s : open) {
            closeQuietly(s);
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

    /** One connection: read the hello, refuse it or register it, then watch for the rank going away. */
    private void serve(Socket s) {
        String peer = String.valueOf(s.getRemoteSocketAddress());
        Registration reg = null;
        try {
            s.setTcpNoDelay(true);
            Wire.LineReader in = new Wire.LineReader(s);
            in.deadline(System.nanoTime() + HELLO_TIMEOUT_NANOS);
            String line;
            try {
                line = in.readLine();
            } catch (SocketTimeoutException e) {
                refuse(s, peer, "no hello within " + TimeUnit.NANOSECONDS.toSeconds(HELLO_TIMEOUT_NANOS) + " s");
                return;
            } catch (ProtocolException e) {
                refuse(s, peer, "malformed hello: " + e.getMessage());
                return;
            }
            if (line == null) {
                LOG.debug("rendezvous {}: {} closed without a hello", address, peer);
                return;
            }
            String[] f = line.split(" ", -1);
            String bad = checkHello(f);
            if (bad != null) {
                refuse(s, peer, bad);
                return;
            }
            String job = Wire.decode(f[2], "job id");
            int rank = Integer.parseInt(f[3]);
            byte[] rankNonce = SecretProof.unhex(f[4]);
            String endpoint = Wire.decode(f[5], "endpoint");
            // challenge and response: both sides prove the secret; it never crosses the wire
            byte[] nonce = SecretProof.nonce();
            Wire.writeLine(s.getOutputStream(), Wire.VERSION, Wire.CHALLENGE, SecretProof.hex(nonce),
                    SecretProof.hex(Wire.proof(secret, true, job, rank, endpoint, rankNonce, nonce)));
            String answer;
            try {
                answer = in.readLine();
            } catch (SocketTimeoutException e) {
                refuse(s, peer, "no proof within " + TimeUnit.NANOSECONDS.toSeconds(HELLO_TIMEOUT_NANOS) + " s");
                return;
            }
            if (answer == null) {
                LOG.debug("rendezvous {}: {} closed after the challenge", address, peer);
                return;
            }
            String[] p = answer.split(" ", -1);
            byte[] proof = p.length == 3 && p[0].equals(Wire.VERSION) && p[1].equals(Wire.PROOF) ? SecretProof.unhex(p[2]) : null;
            if (proof == null) {
                refuse(s, peer, "malformed proof: expected '" + Wire.VERSION + " " + Wire.PROOF + " <64 hex digits>'");
                return;
            }
            // the secret first: an outsider learns nothing about the job from what we refuse
            if (!SecretProof.matches(Wire.proof(secret, false, job, rank, endpoint, rankNonce, nonce), proof)) {
                refuse(s, peer, "wrong secret");
                return;
            }
            bad = checkClaims(job, rank, endpoint);
            if (bad != null) {
                refuse(s, peer, bad);
                return;
            }
            reg = new Registration(rank, endpoint, s);
            String refusal = register(reg);
            if (refusal != null) {
                reg = null;
                refuse(s, peer, refusal);
                return;
            }
            // a registered rank has nothing more to say: any byte or the end of stream means it went away
            in.noDeadline();
            int b = in.read();
            unregister(reg, b < 0 ? "disconnected" : "sent data after its hello");
        } catch (ProtocolException e) {
            refuse(s, peer, "malformed hello: " + e.getMessage());
        } catch (IOException e) {
            if (reg != null) {
                unregister(reg, "connection failed: " + e.getMessage());
            } else {
                LOG.debug("rendezvous {}: connection from {} failed: {}", address, peer, e.toString());
            }
        } finally {
            boolean broadcasterOwns;
            synchronized (lock) {
                // a finished exchange's registered sockets are closed by whoever sends them the outcome
                broadcasterOwns = reg != null && state != State.OPEN && slots[reg.rank()] == reg;
            }
            if (!broadcasterOwns) {
                if (reg != null) {
                    unregister(reg, "lost its connection handler");
                }
                closeQuietly(s);
                open.remove(s);
            }
        }
    }

    /** @return what is wrong with the hello fields (never naming the secret), or null if it is acceptable so far */
    private String checkHello(String[] f) throws ProtocolException {
        if (f.length == 0 || !f[0].equals(Wire.VERSION)) {
            String tag = f.length == 0 ? "" : f[0];
            return tag.startsWith("JSPIN-RDV/")
                    ? "unsupported protocol version '" + Wire.printable(tag, 32) + "'; this server speaks " + Wire.VERSION
                    : "not a rendezvous hello: it starts with '" + Wire.printable(tag, 32) + "', expected '" + Wire.VERSION + " HELLO'";
        }
        if (f.length != 6 || !f[1].equals(Wire.HELLO)) {
            return "malformed hello: expected '" + Wire.VERSION + " HELLO <job> <rank> <nonce> <endpoint>' (6 fields), got "
                    + f.length + " fields" + (f.length > 1 ? " starting '" + f[0] + " " + Wire.printable(f[1], 16) + "'" : "");
        }
        for (int i = 2; i < 6; i++) {
            if (f[i].length() > Wire.MAX_FIELD) {
                return "malformed hello: field " + i + " is longer than " + Wire.MAX_FIELD + " bytes";
            }
        }
        Wire.decode(f[2], "job id");
        Wire.decode(f[5], "endpoint");
        try {
            Integer.parseInt(f[3]);
        } catch (NumberFormatException e) {
            return "malformed hello: rank '" + Wire.printable(f[3], 32) + "' is not a number";
        }
        if (SecretProof.unhex(f[4]) == null) {
            return "malformed hello: the nonce is not " + SecretProof.BYTES + " bytes in hex (a version 1 client sends"
                    + " its secret there; this server speaks " + Wire.VERSION + ")";
        }
        return null;
    }

    /** @return what is wrong with what a proven rank claims (job, rank, endpoint), or null */
    private String checkClaims(String job, int rank, String endpoint) {
        if (!job.equals(jobId)) {
            return Wire.otherJob(job, jobId);
        }
        if (rank < 0 || rank >= size) {
            return "rank " + rank + " is out of range [0, " + size + ")";
        }
        if (endpoint.isBlank()) {
            return "rank " + rank + " sent a blank endpoint";
        }
        return null;
    }

    /** @return why {@code reg} cannot be registered, or null once it is (and the exchange completed if it was the last) */
    private String register(Registration reg) throws IOException {
        List<Registration> all;
        synchronized (lock) {
            if (state == State.COMPLETE) {
                return "rank " + reg.rank() + " arrived after the exchange completed";
            }
            if (state == State.FAILED) {
                return "rank " + reg.rank() + " arrived after the exchange failed: " + failure;
            }
            Registration there = slots[reg.rank()];
            if (there != null) {
                return "rank " + reg.rank() + " is already registered (from " + there.socket().getRemoteSocketAddress()
                        + " with endpoint '" + Wire.printable(there.endpoint(), 64) + "')";
            }
            // written under the lock so that ACCEPTED always precedes the list on this connection
            Wire.writeLine(reg.socket().getOutputStream(), Wire.VERSION, Wire.ACCEPTED);
            slots[reg.rank()] = reg;
            arrived++;
            if (arrived < size) {
                return null;
            }
            state = State.COMPLETE;
            all = List.of(slots);
            List<String> list = new ArrayList<>(size);
            for (Registration r : all) {
                list.add(r.endpoint());
            }
            endpoints = List.copyOf(list);
        }
        LOG.debug("rendezvous {} for job '{}': all {} ranks arrived", address, jobId, size);
        broadcast(all, listMessage(all));
        return null;
    }

    /** Frees the slot of a rank that went away before the list was sent, so it may reconnect. */
    private void unregister(Registration reg, String why) {
        synchronized (lock) {
            if (state != State.OPEN || slots[reg.rank()] != reg) {
                return; // finished meanwhile: the broadcaster closed the socket, nothing went wrong
            }
            slots[reg.rank()] = null;
            arrived--;
        }
        LOG.warn("rendezvous {} for job '{}': rank {} ({}) {} before all ranks arrived; its slot is free again",
                address, jobId, reg.rank(), reg.socket().getRemoteSocketAddress(), why);
    }

    /** Fails an open exchange: every registered rank gets {@code reason}. @return whether this call failed it */
    private boolean fail(String reason) {
        List<Registration> waiting = new ArrayList<>();
        synchronized (lock) {
            if (state != State.OPEN) {
                return false;
            }
            state = State.FAILED;
            failure = reason;
            for (Registration r : slots) {
                if (r != null) {
                    waiting.add(r);
                }
            }
        }
        broadcast(waiting, Wire.line(Wire.VERSION, Wire.ERROR, Wire.encode(clip(reason))));
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
                    closeQuietly(r.socket());
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

    private byte[] listMessage(List<Registration> all) {
        StringBuilder b = new StringBuilder();
        b.append(Wire.VERSION).append(' ').append(Wire.ENDPOINTS).append(' ').append(all.size()).append('\n');
        for (Registration r : all) {
            b.append(Wire.EP).append(' ').append(r.rank()).append(' ').append(Wire.encode(r.endpoint())).append('\n');
        }
        b.append(Wire.VERSION).append(' ').append(Wire.END).append('\n');
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Refuses a connection: logs why, replies with an ERROR line, drains a little input so the reply is not reset away, closes. */
    private void refuse(Socket s, String peer, String reason) {
        LOG.warn("rendezvous {} for job '{}': refused {}: {}", address, jobId, peer, reason);
        try {
            Wire.writeLine(s.getOutputStream(), Wire.VERSION, Wire.ERROR, Wire.encode(clip(reason)));
            s.shutdownOutput();
            s.setSoTimeout(DRAIN_MILLIS);
            InputStream in = s.getInputStream();
            byte[] sink = new byte[4096];
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
            for (int n = 0; n < DRAIN_BYTES && System.nanoTime() < until; ) {
                int r = in.read(sink);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        } catch (SocketException | SocketTimeoutException e) {
            // the peer is gone or silent: nothing more to do for it
        } catch (IOException e) {
            LOG.debug("rendezvous {}: could not send the refusal to {}: {}", address, peer, e.toString());
        } finally {
            closeQuietly(s);
            open.remove(s);
        }
    }

    private List<Integer> missingLocked() {
        List<Integer> missing = new ArrayList<>();
        if (state == State.COMPLETE) {
            return missing;
        }
        for (int i = 0; i < size; i++) {
            if (slots[i] == null) {
                missing.add(i);
            }
        }
        return missing;
    }

    /** Keeps an ERROR line under the field limit (a long list of missing ranks, say). */
    private static String clip(String reason) {
        return reason.length() > Wire.MAX_FIELD / 3 ? reason.substring(0, Wire.MAX_FIELD / 3 - 3) + "..." : reason;
    }

    static void checkJobAndSecret(String jobId, String secret) {
        if (jobId == null || jobId.isBlank() || Wire.encode(jobId).length() > Wire.MAX_FIELD) {
            throw new MpiException(ErrorClass.ERR_ARG, "job id must be non-blank and at most " + Wire.MAX_FIELD
                    + " bytes encoded, got '" + (jobId == null ? null : Wire.printable(jobId, 64)) + "'");
        }
        if (secret == null || secret.length() < 16 || Wire.encode(secret).length() > Wire.MAX_FIELD) {
            throw new MpiException(ErrorClass.ERR_ARG, "the job secret must have 16 to " + Wire.MAX_FIELD
                    + " characters, got " + (secret == null ? "none" : secret.length()));
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // closing is best effort
            }
        }
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "RendezvousServer[" + address + ", job '" + jobId + "', " + arrived + "/" + size + ", " + state + "]";
        }
    }
}
