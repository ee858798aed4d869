package org.jspin.conformance;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.NicConfig;

/**
 * What the test JVM and its rank workers ({@link ProcessRanks}, {@link RankWorker}) say to each
 * other over a worker's control connection: binary messages, each an int type and its fields.
 *
 * <pre>
 * worker: HELLO slot token pid                 once, when it has connected
 * parent: RUN request                          run one rank of one target.run call of one test
 * worker: JOINED run | JOIN_FAILED run failure the rank has joined the job, or could not
 * parent: GO run | ABORT run                   every rank joined: run the body; or leave
 * worker: RESULT run [failure]                 the rank's body and finalize are done
 * worker: RETIRE run                           before a JOIN_FAILED: this JVM may be unwell, replace it
 * </pre>
 */
final class ControlWire {
    static final int HELLO = 1;
    static final int RUN = 2;
    static final int GO = 3;
    static final int ABORT = 4;
    static final int JOINED = 5;
    static final int JOIN_FAILED = 6;
    static final int RESULT = 7;
    static final int RETIRE = 8;

    /** Frames kept per throwable of a reported failure, and throwables kept of its cause chain. */
    private static final int MAX_FRAMES = 40;
    private static final int MAX_CAUSES = 6;
    private static final int MAX_STRING = 1 << 20;

    private ControlWire() {
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    static String readString(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n == -1) {
            return null;
        }
        if (n < 0 || n > MAX_STRING) {
            throw new ProtocolException("string of " + n + " bytes on the control connection");
        }
        return new String(in.readNBytes(n), StandardCharsets.UTF_8);
    }

    /** One run request: which test and call, the outcomes of its earlier calls, and the job to join as which rank. */
    record RunRequest(long run, String uniqueId, int call, List<ProcessRanks.Outcome> earlier, String target,
                      int rank, int size, String jobId, String secret, String rendezvous, NicConfig nic,
                      long connectMillis) {
        void write(DataOutputStream out) throws IOException {
            out.writeLong(run);
            writeString(out, uniqueId);
            out.writeInt(call);
            out.writeInt(earlier.size());
            for (ProcessRanks.Outcome o : earlier) {
                writeOutcome(out, o);
            }
            writeString(out, target);
            out.writeInt(rank);
            out.writeInt(size);
            writeString(out, jobId);
            writeString(out, secret);
            writeString(out, rendezvous);
            out.writeInt(nic.eagerLimit());
            out.writeInt(nic.chunkSize());
            out.writeInt(nic.packets());
            out.writeBoolean(nic.streamingUnpack());
            out.writeLong(connectMillis);
        }

        static RunRequest read(DataInputStream in) throws IOException {
            long run = in.readLong();
            String uniqueId = readString(in);
            int call = in.readInt();
            int k = in.readInt();
            List<ProcessRanks.Outcome> earlier = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                earlier.add(readOutcome(in));
            }
            String target = readString(in);
            int rank = in.readInt();
            int size = in.readInt();
            String jobId = readString(in);
            String secret = readString(in);
            String rendezvous = readString(in);
            NicConfig nic = new NicConfig(in.readInt(), in.readInt(), in.readInt(), in.readBoolean());
            return new RunRequest(run, uniqueId, call, earlier, target, rank, size, jobId, secret, rendezvous, nic,
                    in.readLong());
        }
    }

    private static void writeOutcome(DataOutputStream out, ProcessRanks.Outcome o) throws IOException {
        writeString(out, o.errorClass() == null ? null : o.errorClass().name());
        writeString(out, o.reason());
        out.writeInt(o.suppressed().size());
        for (ProcessRanks.Outcome s : o.suppressed()) {
            writeOutcome(out, s);
        }
    }

    private static ProcessRanks.Outcome readOutcome(DataInputStream in) throws IOException {
        String ec = readString(in);
        String reason = readString(in);
        int k = in.readInt();
        List<ProcessRanks.Outcome> suppressed = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            suppressed.add(readOutcome(in));
        }
        return new ProcessRanks.Outcome(ec == null ? null : ErrorClass.valueOf(ec), reason, suppressed);
    }

    /** One throwable of a failure's cause chain, as text. */
    record Layer(String className, String message, String errorClass, String reason, List<StackTraceElement> frames) {
    }

    /**
     * A failure of a rank in a worker: when it happened (wall clock, comparable across the JVMs of
     * one machine) and its cause chain with a short stack each.
     */
    record Failure(Instant at, List<Layer> chain) {
        static Failure of(Throwable t, Instant at) {
            List<Layer> chain = new ArrayList<>();
            for (Throwable x = t; x != null && chain.size() < MAX_CAUSES; x = x.getCause()) {
                StackTraceElement[] st = x.getStackTrace();
                List<StackTraceElement> frames = List.of(st).subList(0, Math.min(st.length, MAX_FRAMES));
                chain.add(x instanceof MpiException m
                        ? new Layer(x.getClass().getName(), x.getMessage(), m.errorClass().name(), m.reason(), frames)
                        : new Layer(x.getClass().getName(), x.getMessage(), null, null, frames));
                if (x.getCause() == x) {
                    break;
                }
            }
            return new Failure(at, chain);
        }

        void write(DataOutputStream out) throws IOException {
            out.writeLong(at.getEpochSecond());
            out.writeInt(at.getNano());
            out.writeInt(chain.size());
            for (Layer l : chain) {
                writeString(out, l.className);
                writeString(out, l.message);
                writeString(out, l.errorClass);
                writeString(out, l.reason);
                out.writeInt(l.frames.size());
                for (StackTraceElement f : l.frames) {
                    writeString(out, f.getClassName());
                    writeString(out, f.getMethodName());
                    writeString(out, f.getFileName());
                    out.writeInt(f.getLineNumber());
                }
            }
        }

        static Failure read(DataInputStream in) throws IOException {
            Instant at = Instant.ofEpochSecond(in.readLong(), in.readInt());
            int k = in.readInt();
            List<Layer> chain = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                String cls = readString(in);
                String message = readString(in);
                String ec = readString(in);
                String reason = readString(in);
                int nf = in.readInt();
                List<StackTraceElement> frames = new ArrayList<>();
                for (int j = 0; j < nf; j++) {
                    frames.add(new StackTraceElement(readString(in), readString(in), readString(in), in.readInt()));
                }
                chain.add(new Layer(cls, message, ec, reason, frames));
            }
            return new Failure(at, chain);
        }

        /**
         * @return the failure as {@link org.jspin.mpi.LocalRanks} reports a rank's: an
         *         MpiException of the same error class whose message names the rank (ERR_OTHER
         *         and the original's class and message for any other throwable), caused by the
         *         worker's throwable (rebuilt, with its stack)
         */
        MpiException asRankFailure(int rank, boolean starting) {
            Throwable cause = null;
            for (int i = chain.size() - 1; i >= 0; i--) {
                Layer l = chain.get(i);
                Throwable x = l.errorClass != null
                        ? new MpiException(ErrorClass.valueOf(l.errorClass), l.reason, cause)
                        : new RemoteFailure(l.className, l.message, cause);
                x.setStackTrace(l.frames.toArray(StackTraceElement[]::new));
                cause = x;
            }
            if (cause == null) {
                cause = new RemoteFailure("(unknown)", "the worker reported a failure without a throwable", null);
            }
            String prefix = "rank " + rank + (starting ? " failed to start: " : ": ");
            return cause instanceof MpiException m ? new MpiException(m.errorClass(), prefix + m.reason(), m)
                    : new MpiException(ErrorClass.ERR_OTHER, prefix + cause, cause);
        }
    }

    /**
     * A throwable of a worker JVM other than an MpiException, rebuilt in the test JVM: prints as the
     * original did ({@code class: message}) and carries the original's stack.
     */
    static final class RemoteFailure extends Exception {
        private static final long serialVersionUID = 1L;
        private final String className;

        RemoteFailure(String className, String message, Throwable cause) {
            super(message, cause);
            this.className = className;
        }

        /** @return the class of the worker's throwable */
        String className() {
            return className;
        }

        @Override
        public String toString() {
            String m = getLocalizedMessage();
            return m != null ? className + ": " + m : className;
        }
    }
}
