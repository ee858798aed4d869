package org.jspin.bootstrap.pmi;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

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

    /** The commands whose replies Hydra always gives an {@code rc}. */
    private static final Set<String> RC_REPLIES = Set.of("response_to_init", "put_result", "get_result");

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

    private Pmi1Client(PmiLineChannel channel, Duration timeout, int rank, int size, String kvsName,
            int kvsNameMax, int keyMax, int valueMax) {
        this.channel = channel;
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
        Objects.requireNonNull(env, "env");
        Deadline deadline = Deadline.after(timeout);
        String fdText = env.get("PMI_FD");
        if (fdText != null) {
            int fd = integer("PMI_FD", fdText, 0, "a file descriptor number");
            int size = integer("PMI_SIZE", require(env, "PMI_SIZE", "PMI_FD"), 1, "a job size");
            int rank = integer("PMI_RANK", require(env, "PMI_RANK", "PMI_FD"), 0, "a rank");
            if (rank >= size) {
                throw new MpiException(ErrorClass.ERR_OTHER, "PMI_RANK=" + rank + " is not below PMI_SIZE=" + size);
            }
            PmiLineChannel channel;
            try {
                channel = new FdLineChannel(fd);
            } catch (IOException e) {
                throw new MpiException(ErrorClass.ERR_OTHER, "cannot use PMI_FD=" + fd + ": " + e.getMessage(), e);
            }
            return start(channel, rank, size, timeout, deadline);
        }
        String port = env.get("PMI_PORT");
        if (port != null) {
            InetSocketAddress address = hostPort(port);
            String id = Integer.toString(integer("PMI_ID", require(env, "PMI_ID", "PMI_PORT"), 0, "a process id"));
            Socket socket = new Socket();
            try {
                socket.connect(address, BufferedLineChannel.millisLeft(deadline.nanos(), "connecting"));
                socket.setTcpNoDelay(true);
                return startWithInitack(new SocketLineChannel(socket, "PMI_PORT=" + port), id, timeout, deadline);
            } catch (IOException e) {
                closeQuietly(socket);
                throw new MpiException(ErrorClass.ERR_OTHER, "cannot connect to the process manager at PMI_PORT="
                        + port + " within " + timeout + ": " + e, e);
            }
        }
        throw new MpiException(ErrorClass.ERR_OTHER, "neither PMI_FD nor PMI_PORT is set: this process was not"
                + " started by a PMI-1 process manager such as mpiexec.hydra");
    }

    /** Initialises over a channel whose rank and size are already known (the {@code PMI_FD} way). */
    static Pmi1Client start(PmiLineChannel channel, int rank, int size, Duration timeout, Deadline deadline) {
        try {
            return initialise(channel, rank, size, timeout, deadline);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** Introduces itself with {@code initack}, learns rank and size, then initialises (the {@code PMI_PORT} way). */
    static Pmi1Client startWithInitack(PmiLineChannel channel, String pmiId, Duration timeout, Deadline deadline) {
        try {
            String request = "cmd=initack pmiid=" + pmiId;
            call(channel, request, "initack", deadline);
            Integer size = null;
            Integer rank = null;
            boolean debug = false;
            while (size == null || rank == null || !debug) {
                Pmi1Line set = expect(channel, receive(channel, request, deadline), request, "set");
                if (set.fields().size() != 2) {
                    throw malformed(channel, request, set.text(), "expected one key after cmd=set");
                }
                String key = set.fields().keySet().stream().skip(1).findFirst().orElseThrow();
                String value = set.get(key);
                switch (key) {
                    case "size" -> size = replyInt(channel, request, set, key, 1);
                    case "rank" -> rank = replyInt(channel, request, set, key, 0);
                    case "debug" -> debug = true;
                    default -> throw malformed(channel, request, set.text(), "unknown key '" + key + "=" + value + "'");
                }
            }
            if (rank >= size) {
                throw new MpiException(ErrorClass.ERR_OTHER, "the process manager at " + channel.describe()
                        + " assigned rank " + rank + " in a job of size " + size);
            }
            return initialise(channel, rank, size, timeout, deadline);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static Pmi1Client initialise(PmiLineChannel channel, int rank, int size, Duration timeout,
            Deadline deadline) {
        call(channel, "cmd=init pmi_version=1 pmi_subversion=1", "response_to_init", deadline);
        String maxesRequest = "cmd=get_maxes";
        Pmi1Line maxes = call(channel, maxesRequest, "maxes", deadline);
        int kvsNameMax = replyInt(channel, maxesRequest, maxes, "kvsname_max", 1);
        int keyMax = replyInt(channel, maxesRequest, maxes, "keylen_max", 1);
        int valueMax = replyInt(channel, maxesRequest, maxes, "vallen_max", 1);
        String kvsRequest = "cmd=get_my_kvsname";
        Pmi1Line kvs = call(channel, kvsRequest, "my_kvsname", deadline);
        String kvsName = kvs.get("kvsname");
        if (kvsName == null || kvsName.isEmpty()) {
            throw malformed(channel, kvsRequest, kvs.text(), "no kvsname");
        }
        return new Pmi1Client(channel, timeout, rank, size, kvsName, kvsNameMax, keyMax, valueMax);
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
        checkWord("key", key, keyMax, "keylen_max", false);
        checkWord("value for key '" + key + "'", value, valueMax, "vallen_max", true);
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
        checkWord("key", key, keyMax, "keylen_max", false);
        String request = "cmd=get kvsname=" + kvsName + " key=" + key;
        Pmi1Line reply = request(request, "get_result", deadline);
        String value = reply.get("value");
        if (value == null) {
            unusable = "a get_result without a value";
            throw malformed(channel, request, reply.text(), "no value");
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
            closeQuietly(channel);
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
            reply = converse(channel, request, expected, deadline);
        } catch (MpiException e) {
            unusable = e.reason();
            throw e;
        }
        // a refusal is a proper answer: the conversation is still in step
        return refuseUnlessRcZero(channel, request, reply);
    }

    /** Sends {@code request} and returns its reply, which must be {@code cmd=expected} and, with an rc, rc=0. */
    private static Pmi1Line call(PmiLineChannel channel, String request, String expected, Deadline deadline) {
        return refuseUnlessRcZero(channel, request, converse(channel, request, expected, deadline));
    }

    /** Sends {@code request} and returns its well-formed {@code cmd=expected} reply, whatever its rc. */
    private static Pmi1Line converse(PmiLineChannel channel, String request, String expected, Deadline deadline) {
        try {
            channel.writeLine(request, deadline.nanos());
        } catch (IOException e) {
            throw transportFailure(channel, request, deadline, e);
        }
        return expect(channel, receive(channel, request, deadline), request, expected);
    }

    private static Pmi1Line receive(PmiLineChannel channel, String request, Deadline deadline) {
        String text;
        try {
            text = channel.readLine(deadline.nanos());
        } catch (IOException e) {
            throw transportFailure(channel, request, deadline, e);
        }
        try {
            return Pmi1Line.parse(text);
        } catch (IllegalArgumentException e) {
            throw malformed(channel, request, text, e.getMessage());
        }
    }

    /** @return {@code reply} if it is {@code cmd=expected} with a numeric rc where one belongs */
    private static Pmi1Line expect(PmiLineChannel channel, Pmi1Line reply, String request, String expected) {
        if (!expected.equals(reply.cmd())) {
            throw malformed(channel, request, reply.text(), "expected cmd=" + expected);
        }
        String rc = reply.get("rc");
        if (rc == null) {
            if (RC_REPLIES.contains(expected)) {
                throw malformed(channel, request, reply.text(), "no rc");
            }
            return reply;
        }
        try {
            Integer.parseInt(rc);
        } catch (NumberFormatException e) {
            throw malformed(channel, request, reply.text(), "rc is not a number");
        }
        return reply;
    }

    /** @return {@code reply} unless its rc says the process manager refused the request */
    private static Pmi1Line refuseUnlessRcZero(PmiLineChannel channel, String request, Pmi1Line reply) {
        String rc = reply.get("rc");
        int code = rc == null ? 0 : Integer.parseInt(rc);
        if (code != 0) {
            String msg = reply.get("msg");
            throw new MpiException(ErrorClass.ERR_OTHER, "the process manager at " + channel.describe()
                    + " refused '" + request + "' (rc=" + code + (msg == null ? "" : ", msg=" + msg) + "): '"
                    + reply.text() + "'");
        }
        return reply;
    }

    private static int replyInt(PmiLineChannel channel, String request, Pmi1Line reply, String key, int min) {
        String text = reply.get(key);
        if (text == null) {
            throw malformed(channel, request, reply.text(), "no " + key);
        }
        try {
            int value = Integer.parseInt(text);
            if (value >= min) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw malformed(channel, request, reply.text(), key + "=" + text + " is not a number >= " + min);
    }

    private static MpiException malformed(PmiLineChannel channel, String request, String reply, String why) {
        return new MpiException(ErrorClass.ERR_OTHER, "malformed PMI-1 reply to '" + request + "' from "
                + channel.describe() + ": '" + quote(reply) + "' (" + why + ")");
    }

    private static MpiException transportFailure(PmiLineChannel channel, String request, Deadline deadline,
            IOException e) {
        if (e instanceof SocketTimeoutException) {
            return new MpiException(ErrorClass.ERR_OTHER, "no reply to '" + request + "' from the process manager"
                    + " over " + channel.describe() + " within " + deadline.budget()
                    + " (a rank that never arrived, or a stuck process manager)", e);
        }
        if (e instanceof EOFException) {
            return new MpiException(ErrorClass.ERR_OTHER, "the process manager closed " + channel.describe()
                    + " before answering '" + request + "'", e);
        }
        return new MpiException(ErrorClass.ERR_OTHER, "PMI-1 '" + request + "' over " + channel.describe()
                + " failed: " + e.getMessage(), e);
    }

    /** Rejects what a PMI-1 line cannot carry: spaces, control characters, '=' and overlong text. */
    private static void checkWord(String what, String text, int max, String maxName, boolean mayBeEmpty) {
        if (text == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 " + what + " must not be null");
        }
        if (text.isEmpty() && !mayBeEmpty) {
            throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 " + what + " must not be empty");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '=' || Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSpaceChar(c)) {
                throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 " + what + " '" + quote(text)
                        + "' contains '" + quote(String.valueOf(c)) + "' at index " + i
                        + "; PMI-1 lines cannot carry spaces, control characters or '='");
            }
        }
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes >= max) {
            throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 " + what + " '" + quote(text) + "' is " + bytes
                    + " bytes; the process manager's " + maxName + "=" + max
                    + " (which counts a terminating NUL) allows at most " + (max - 1));
        }
    }

    /** @return {@code text} with control characters spelled out, so a message stays on one line */
    static String quote(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (Character.isISOControl(c)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    private static String require(Map<String, String> env, String name, String because) {
        String value = env.get(name);
        if (value == null) {
            throw new MpiException(ErrorClass.ERR_OTHER, because + " is set but " + name + " is missing");
        }
        return value;
    }

    private static int integer(String name, String text, int min, String what) {
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= min) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new MpiException(ErrorClass.ERR_OTHER, name + "='" + quote(text) + "' is not " + what
                + " (an integer >= " + min + ")");
    }

    private static InetSocketAddress hostPort(String text) {
        int colon = text.lastIndexOf(':');
        String host = colon > 0 ? text.substring(0, colon) : "";
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = -1;
        if (colon > 0) {
            try {
                port = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (host.isEmpty() || port < 1 || port > 65535) {
            throw new MpiException(ErrorClass.ERR_OTHER, "PMI_PORT='" + quote(text) + "' is not host:port");
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new MpiException(ErrorClass.ERR_OTHER, "PMI_PORT='" + text + "': cannot resolve host '" + host + "'");
        }
        return address;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // the connection is being abandoned; there is nothing left to tell it
        }
    }

    /**
     * A point in {@link System#nanoTime()} plus the budget it came from (for messages).
     *
     * @param nanos  when the wait ends
     * @param budget how long the wait was allowed
     */
    record Deadline(long nanos, Duration budget) {
        /** @throws MpiException ERR_ARG for a null or non-positive timeout */
        static Deadline after(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new MpiException(ErrorClass.ERR_ARG, "PMI-1 timeout must be positive, got " + timeout);
            }
            long budget;
            try {
                budget = timeout.toNanos();
            } catch (ArithmeticException e) {
                budget = Long.MAX_VALUE / 4;
            }
            return new Deadline(System.nanoTime() + Math.min(budget, Long.MAX_VALUE / 4), timeout);
        }
    }
}
