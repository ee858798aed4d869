package org.jspin.bootstrap.pmi;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * A PMI-1 client: how a rank started by MPICH's Hydra ({@code mpiexec.hydra}) learns its rank, the
 * job size and the job's key-value space, publishes values there, waits for the other ranks and
 * reads what they published.
 *
 * <p>Hydra offers two transports, both handled by {@link #connect(Map)}:
 * <ul>
 * <li>by default each rank inherits a connected descriptor named by {@code PMI_FD}, with its rank in
 * {@code PMI_RANK} and the job size in {@code PMI_SIZE};</li>
 * <li>under {@code mpiexec.hydra -pmi-port} each rank connects to {@code PMI_PORT} ({@code host:port})
 * and introduces itself with {@code PMI_ID}; Hydra answers with the size and the rank.</li>
 * </ul>
 * Either way the client then sends {@code init}, {@code get_maxes} and {@code get_my_kvsname}.
 *
 * <p>Every wait for a reply is bounded (by the timeout given to {@code connect}, or the one passed to
 * the call); a timeout, a broken connection or a reply that makes no sense leaves the client unusable,
 * since the conversation can no longer be trusted to be in step. Calls are serialised: the client may
 * be shared between threads, but they take turns.
 */
public final class Pmi1Client implements AutoCloseable {
    /** How long {@link #connect(Map)} and the calls without a timeout wait for a reply. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final Pmi1Conversation pmi;
    private final PmiLineChannel channel;
    private final Duration timeout;
    private final int rank;
    private final int size;
    private final String kvsName;
    private final int kvsNameMax;
    private final int keyMax;
    private final int valueMax;

    private String unusable;
    private boolean finalized;
    private boolean aborted;
    private boolean closed;

    /** A client over a conversation {@link Pmi1Handshake} has initialised. */
    Pmi1Client(Pmi1Conversation pmi, Duration timeout, int rank, int size, String kvsName,
            int kvsNameMax, int keyMax, int valueMax) {
        this.pmi = pmi;
        this.channel = pmi.channel();
        this.timeout = timeout;
        this.rank = rank;
        this.size = size;
        this.kvsName = kvsName;
        this.kvsNameMax = kvsNameMax;
        this.keyMax = keyMax;
        this.valueMax = valueMax;
    }

    /**
     * Connects to the process manager that started this process, waiting at most
     * {@link #DEFAULT_TIMEOUT} for each step.
     *
     * @param env the process environment ({@code System.getenv()})
     * @return an initialised client
     * @throws MpiException ERR_OTHER naming the variable and its value when neither {@code PMI_FD} nor
     *                      {@code PMI_PORT} is set or one they need is missing or malformed; naming the
     *                      request when the process manager refuses it ({@code rc != 0}, with its
     *                      message), answers nonsense, goes away or does not answer in time
     */
    public static Pmi1Client connect(Map<String, String> env) {
        return connect(env, DEFAULT_TIMEOUT);
    }

    /**
     * Like {@link #connect(Map)}, with {@code timeout} bounding the connection and handshake as a whole
     * and, later, each call that takes no timeout of its own.
     *
     * @throws MpiException ERR_ARG for a non-positive timeout; otherwise as {@link #connect(Map)}
     */
    public static Pmi1Client connect(Map<String, String> env, Duration timeout) {
        return PmiEnvironment.connect(env, timeout);
    }

    /** @return this process's rank in the job */
    public int rank() {
        return rank;
    }

    /** @return the number of ranks in the job */
    public int size() {
        return size;
    }

    /** @return the name of the job's key-value space */
    public String kvsName() {
        return kvsName;
    }

    /** @return the process manager's {@code kvsname_max} (bytes, counting a C string's terminating NUL) */
    public int maxKvsNameLength() {
        return kvsNameMax;
    }

    /** @return the process manager's {@code keylen_max}; keys must be shorter (it counts the terminating NUL) */
    public int maxKeyLength() {
        return keyMax;
    }

    /** @return the process manager's {@code vallen_max}; values must be shorter (it counts the terminating NUL) */
    public int maxValueLength() {
        return valueMax;
    }

    /**
     * Publishes {@code value} under {@code key} in the job's key-value space; other ranks see it after
     * the next {@link #barrier()}.
     *
     * @param key   a non-empty key without spaces, control characters or {@code '='}, shorter than
     *              {@link #maxKeyLength()} bytes
     * @param value a value without spaces, control characters or {@code '='} (PMI-1 lines cannot carry
     *              them), shorter than {@link #maxValueLength()} bytes; {@code 127.0.0.1:4567} is fine
     * @throws MpiException ERR_ARG naming the key or value that cannot be sent; ERR_OTHER when the
     *                      process manager refuses ({@code rc != 0}, with its message) or fails to answer
     */
    public void put(String key, String value) {
        put(key, value, Deadline.after(timeout));
    }

    synchronized void put(String key, String value, Deadline deadline) {
        Pmi1Words.check("key", key, keyMax, "keylen_max", false);
        Pmi1Words.check("value for key '" + key + "'", value, valueMax, "vallen_max", true);
        request("cmd=put kvsname=" + kvsName + " key=" + key + " value=" + value, "put_result", deadline);
    }

    /**
     * Reads the value some rank published under {@code key} (before a barrier both took part in).
     *
     * @return the value
     * @throws MpiException ERR_ARG naming a key that cannot be sent; ERR_OTHER when the process manager
     *                      refuses (an unknown key: {@code rc=-1 msg=key_..._not_found}) or fails to answer
     */
    public String get(String key) {
        return get(key, Deadline.after(timeout));
    }

    synchronized String get(String key, Deadline deadline) {
        Pmi1Words.check("key", key, keyMax, "keylen_max", false);
        String request = "cmd=get kvsname=" + kvsName + " key=" + key;
        Pmi1Line reply = request(request, "get_result", deadline);
        String value = reply.get("value");
        if (value == null) {
            unusable = "a get_result without a value";
            throw pmi.malformed(request, reply.text(), "no value");
        }
        return value;
    }

    /**
     * Waits until every rank of the job has entered the barrier, at most as long as the timeout given to
     * {@code connect}; afterwards every rank sees what every rank put before entering.
     *
     * @throws MpiException ERR_OTHER when the process manager fails or the wait times out (a rank that
     *                      never arrived)
     */
    public void barrier() {
        barrier(timeout);
    }

    /**
     * {@link #barrier()} waiting at most {@code timeout}.
     *
     * @throws MpiException ERR_ARG for a non-positive timeout; otherwise as {@link #barrier()}
     */
    public void barrier(Duration timeout) {
        barrier(Deadline.after(timeout));
    }

    synchronized void barrier(Deadline deadline) {
        request("cmd=barrier_in", "barrier_out", deadline);
    }

    /**
     * Tells the process manager this rank is done with PMI ({@code finalize}) and waits for its
     * acknowledgement; afterwards only {@link #close()} is allowed.
     *
     * @throws MpiException ERR_OTHER when the process manager fails to acknowledge
     */
    public synchronized void finalizeJob() {
        request("cmd=finalize", "finalize_ack", Deadline.after(timeout));
        finalized = true;
    }

    /**
     * Asks the process manager to kill the whole job, this process included, with {@code code} as the
     * job's exit status. The message goes to this process's standard error (Hydra's PMI-1 abort carries
     * no text). Hydra does not answer; this returns once the request is sent and the caller should exit.
     *
     * @throws MpiException ERR_OTHER when the request cannot be sent
     */
    public synchronized void abort(int code, String message) {
        if (closed) {
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot abort over a closed PMI-1 client");
        }
        System.err.println("jspin rank " + rank + " aborts the job with exit code " + code + ": " + message);
        System.err.flush();
        String request = "cmd=abort exitcode=" + code;
        try {
            channel.writeLine(request, Deadline.after(timeout).nanos());
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_OTHER, "PMI-1 '" + request + "' over " + channel.describe()
                    + " failed: " + e.getMessage(), e);
        }
        aborted = true;
    }

    /** Closes the connection to the process manager; idempotent. Does not finalize. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            Pmi1Handshake.closeQuietly(channel);
        }
    }

    @Override
    public String toString() {
        return "Pmi1Client[rank " + rank + " of " + size + ", kvs " + kvsName + ", " + channel.describe() + "]";
    }

    /** One request and its reply on a client that must still be usable; a failure leaves it unusable. */
    private Pmi1Line request(String request, String expected, Deadline deadline) {
        if (closed) {
            throw new MpiException(ErrorClass.ERR_OTHER, "PMI-1 client is closed; cannot send '" + request + "'");
        }
        if (finalized || aborted) {
            throw new MpiException(ErrorClass.ERR_OTHER, "PMI-1 client already " + (finalized ? "finalized" : "aborted")
                    + "; cannot send '" + request + "'");
        }
        if (unusable != null) {
            throw new MpiException(ErrorClass.ERR_OTHER, "PMI-1 connection over " + channel.describe()
                    + " is unusable after an earlier failure (" + unusable + "); cannot send '" + request + "'");
        }
        Pmi1Line reply;
        try {
            reply = pmi.converse(request, expected, deadline);
        } catch (MpiException e) {
            unusable = e.reason();
            throw e;
        }
        // a refusal is a proper answer: the conversation is still in step
        return pmi.refuseUnlessRcZero(request, reply);
    }
}
