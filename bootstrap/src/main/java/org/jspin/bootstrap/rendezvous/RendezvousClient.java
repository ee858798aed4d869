package org.jspin.bootstrap.rendezvous;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.bootstrap.EndpointExchange;
import org.jspin.bootstrap.SecretProof;

/**
 * A rank's side of the rendezvous: connects to a {@link RendezvousServer}, says hello, and waits
 * for every rank's endpoint (the protocol is described there).
 *
 * <p>A refused connection is retried (with a short back-off) until the timeout, because the
 * server may not be up yet: under Slurm and Open MPI rank 0 starts it while the other ranks start
 * at the same time. So is a refusal by a server of another job (its secret proven, its job id not
 * ours): a fixed rendezvous port is served job after job, and a rank of the next job can reach the
 * last job's server in its last moments (seen in CI: a rank of the next job refused within 6 ms of
 * the last job's end, so that its rank 0 waited out its timeout). Everything else fails at once.
 * The timeout bounds the whole exchange: connecting, sending and every read.
 */
public final class RendezvousClient implements EndpointExchange {
    private static final long FIRST_BACKOFF_MILLIS = 10;
    private static final long MAX_BACKOFF_MILLIS = 200;
    /**
     * Longest wait for one connection attempt before a fresh one (a new local port) is tried: a
     * SYN that goes unanswered, or is answered by a stale socket of the port's last server still
     * in TIME_WAIT, is retransmitted after 1, 3, 7 s..., which would spend the whole timeout on
     * one attempt (seen once in CI: a rank that never reached a server listening for 10 s).
     */
    private static final long ATTEMPT_MILLIS = 1000;

    private final String address;
    private final Wire.HostPort hostPort;
    private final String jobId;
    private final String secret;

    /**
     * @param address {@code host:port} of the rendezvous server
     * @param jobId   the job id the server expects
     * @param secret  the job secret (at least 16 characters)
     * @throws MpiException ERR_ARG for an address that is not {@code host:port}, a blank job id or a short secret
     */
    public RendezvousClient(String address, String jobId, String secret) {
        this.hostPort = Wire.HostPort.parse(address, 1);
        Wire.checkJobAndSecret(jobId, secret);
        this.address = address;
        this.jobId = jobId;
        this.secret = secret;
    }

    /**
     * {@inheritDoc}
     *
     * @throws MpiException ERR_ARG for a negative rank, a blank or oversized endpoint or a
     *                      non-positive timeout; ERR_OTHER naming the address and what happened: the
     *                      server refused the hello (its reason: wrong secret, job id, duplicate rank...),
     *                      reported a failure (a timeout, naming the missing ranks), closed the
     *                      connection, sent a malformed reply, could not be reached, or the timeout passed
     */
    @Override
    public List<String> exchange(int rank, String endpoint, Duration timeout) {
        if (rank < 0 || rank >= Wire.MAX_RANKS) {
            throw new MpiException(ErrorClass.ERR_ARG, "rank must be in [0, " + Wire.MAX_RANKS + "), got " + rank);
        }
        if (endpoint == null || endpoint.isBlank() || Wire.encode(endpoint).length() > Wire.MAX_FIELD) {
            throw new MpiException(ErrorClass.ERR_ARG, "endpoint must be non-blank and at most " + Wire.MAX_FIELD
                    + " bytes encoded, got '" + (endpoint == null ? null : Wire.printable(endpoint, 64)) + "'");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new MpiException(ErrorClass.ERR_ARG, "rendezvous timeout must be positive, got " + timeout);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoff = FIRST_BACKOFF_MILLIS;
        String refused = null; // the last other job's refusal: what the timeout reports, if it comes
        while (true) {
            try {
                return attempt(rank, endpoint, timeout, deadline);
            } catch (OtherJob e) {
                refused = e.reason;
            } catch (MpiException e) {
                if (refused != null && deadline - System.nanoTime() <= 0) {
                    throw failure(rank, "refused by the server until the timeout of " + timeout.toMillis() + " ms: "
                            + refused, e);
                }
                throw e;
            }
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw failure(rank, "refused by the server until the timeout of " + timeout.toMillis() + " ms: "
                        + refused, null);
            }
            try {
                Thread.sleep(Math.max(1, Math.min(backoff, left)));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw failure(rank, "interrupted while waiting for this job's rendezvous server", ie);
            }
            backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
        }
    }

    /** One connection's try at the exchange; {@link OtherJob} if the server there serves another job. */
    private List<String> attempt(int rank, String endpoint, Duration timeout, long deadline) {
        String phase = "connecting";
        try (Socket s = connect(deadline, rank, timeout)) {
            s.setTcpNoDelay(true);
            Wire.LineReader in = new Wire.LineReader(s);
            in.deadline(deadline);
            phase = "sending the hello";
            byte[] nonce = SecretProof.nonce();
            Wire.writeLine(s.getOutputStream(), Wire.VERSION, Wire.HELLO, Wire.encode(jobId), Integer.toString(rank),
                    SecretProof.hex(nonce), Wire.encode(endpoint));
            phase = "waiting for the server's challenge";
            String[] c = expect(in.readLine(), rank, phase);
            byte[] serverNonce = c.length == 4 && c[1].equals(Wire.CHALLENGE) ? SecretProof.unhex(c[2]) : null;
            byte[] serverProof = serverNonce != null ? SecretProof.unhex(c[3]) : null;
            if (serverProof == null) {
                throw malformed(rank, phase, "expected " + Wire.CHALLENGE + " <nonce> <proof>, got '"
                        + Wire.printable(String.join(" ", c), 64) + "'");
            }
            byte[] key = secret.getBytes(StandardCharsets.UTF_8);
            if (!SecretProof.matches(Wire.proof(key, true, jobId, rank, endpoint, nonce, serverNonce), serverProof)) {
                throw failure(rank, "the server could not prove that it holds the job secret (wrong secret on one"
                        + " side, or not this job's rendezvous)", null);
            }
            Wire.writeLine(s.getOutputStream(), Wire.VERSION, Wire.PROOF,
                    SecretProof.hex(Wire.proof(key, false, jobId, rank, endpoint, nonce, serverNonce)));
            phase = "waiting for the server to accept the hello";
            String[] f = expect(in.readLine(), rank, phase);
            if (!f[1].equals(Wire.ACCEPTED) || f.length != 2) {
                throw malformed(rank, phase, "expected " + Wire.ACCEPTED + ", got '" + Wire.printable(String.join(" ", f), 64) + "'");
            }
            phase = "waiting for the other ranks (hello accepted)";
            f = expect(in.readLine(), rank, phase);
            if (!f[1].equals(Wire.ENDPOINTS) || f.length != 3) {
                throw malformed(rank, phase, "expected " + Wire.ENDPOINTS + " <n>, got '" + Wire.printable(String.join(" ", f), 64) + "'");
            }
            int n = count(f[2], rank, phase);
            phase = "reading the endpoint list";
            List<String> endpoints = readList(in, n, rank, phase);
            String[] end = expect(in.readLine(), rank, phase);
            if (!end[1].equals(Wire.END) || end.length != 2) {
                throw malformed(rank, phase, "expected " + Wire.END + " after " + n + " endpoints, got '"
                        + Wire.printable(String.join(" ", end), 64) + "'");
            }
            if (rank >= n || !endpoints.get(rank).equals(endpoint)) {
                throw malformed(rank, phase, "the list of " + n + " endpoints does not hold ours ('"
                        + Wire.printable(endpoint, 64) + "') at rank " + rank);
            }
            return List.copyOf(endpoints);
        } catch (SocketTimeoutException e) {
            throw failure(rank, "timed out after " + timeout.toMillis() + " ms " + phase, e);
        } catch (ProtocolException e) {
            throw malformed(rank, phase, e.getMessage());
        } catch (IOException e) {
            throw failure(rank, "I/O error while " + phase + ": " + e, e);
        }
    }

    /** Connects before {@code deadline}, retrying refusals: the server may not be listening yet. */
    private Socket connect(long deadline, int rank, Duration timeout) throws IOException {
        long backoff = FIRST_BACKOFF_MILLIS;
        int attempts = 0;
        int unanswered = 0;
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                if (unanswered == attempts && attempts > 0) {
                    throw new SocketTimeoutException("connecting");
                }
                throw failure(rank, "could not connect within " + timeout.toMillis() + " ms: connection refused ("
                        + attempts + " attempts" + (unanswered > 0 ? ", " + unanswered + " unanswered" : "")
                        + "); is the rendezvous server running?", null);
            }
            InetSocketAddress to = new InetSocketAddress(hostPort.host(), hostPort.port());
            if (to.isUnresolved()) {
                throw failure(rank, "unknown host '" + hostPort.host() + "'", new UnknownHostException(hostPort.host()));
            }
            Socket s = new Socket();
            attempts++;
            try {
                s.connect(to, (int) Math.min(left, ATTEMPT_MILLIS));
                if (s.getLocalPort() == s.getPort() && s.getLocalAddress().equals(s.getInetAddress())) {
                    // TCP self-connect: with nobody listening yet, the kernel gave this socket the very
                    // port it dials and connected it to itself, which would keep the server from binding
                    s.close();
                } else {
                    return s;
                }
            } catch (ConnectException e) {
                s.close();
            } catch (SocketTimeoutException e) {
                s.close();
                unanswered++;
                continue; // at once, from a new port; the deadline check above ends it
            } catch (IOException e) {
                s.close();
                throw e;
            }
            try {
                Thread.sleep(Math.max(1, Math.min(backoff, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw failure(rank, "interrupted while connecting", ie);
            }
            backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
        }
    }

    /** @return the fields of a server line, or throws for the end of stream, an ERROR line or another version */
    private String[] expect(String line, int rank, String phase) throws ProtocolException {
        if (line == null) {
            throw failure(rank, "the server closed the connection while " + phase, null);
        }
        String[] f = line.split(" ", -1);
        if (f.length < 2 || !f[0].equals(Wire.VERSION)) {
            throw malformed(rank, phase, "expected a " + Wire.VERSION + " line, got '" + Wire.printable(line, 64) + "'");
        }
        if (f[1].equals(Wire.ERROR)) {
            String reason = f.length == 3 ? Wire.decode(f[2], "error reason") : Wire.printable(line, 128);
            if (Wire.isOtherJob(reason)) {
                throw new OtherJob(reason);
            }
            throw failure(rank, "refused by the server: " + reason, null);
        }
        return f;
    }

    private List<String> readList(Wire.LineReader in, int n, int rank, String phase) throws IOException {
        // never sized by the server's count alone: the list grows as lines actually arrive
        List<String> endpoints = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            String line = in.readLine();
            if (line == null) {
                throw failure(rank, "the server closed the connection after " + i + " of " + n + " endpoints", null);
            }
            String[] f = line.split(" ", -1);
            if (f.length != 3 || !f[0].equals(Wire.EP) || !f[1].equals(Integer.toString(i))) {
                throw malformed(rank, phase, "expected 'EP " + i + " <endpoint>', got '" + Wire.printable(line, 64) + "'");
            }
            endpoints.add(Wire.decode(f[2], "endpoint of rank " + i));
        }
        return endpoints;
    }

    private int count(String field, int rank, String phase) {
        int n;
        try {
            n = Integer.parseInt(field);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > Wire.MAX_RANKS) {
            throw malformed(rank, phase, "endpoint count '" + Wire.printable(field, 16) + "' is not in [1, " + Wire.MAX_RANKS + "]");
        }
        return n;
    }

    private MpiException malformed(int rank, String phase, String what) {
        return failure(rank, "malformed reply while " + phase + ": " + what, null);
    }

    private MpiException failure(int rank, String what, Throwable cause) {
        String message = "rendezvous at " + address + " (job '" + Wire.printable(jobId, 64) + "', rank " + rank + "): " + what;
        return cause == null ? new MpiException(ErrorClass.ERR_OTHER, message) : new MpiException(ErrorClass.ERR_OTHER, message, cause);
    }

    @Override
    public String toString() {
        return "RendezvousClient[" + address + ", job '" + jobId + "']";
    }

    /** A server of another job refused the hello: tried again until the timeout. */
    private static final class OtherJob extends RuntimeException {
        final String reason;

        OtherJob(String reason) {
            super(reason, null, false, false);
            this.reason = reason;
        }
    }
}
