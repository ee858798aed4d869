package org.jspin.conformance;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.Mpi;
import org.jspin.nic.Job;
import org.jspin.nic.NicConfig;
import org.jspin.transport.netty.join.NettyLaunch;
import org.jspin.bootstrap.rendezvous.RendezvousClient;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * A worker JVM of {@link ProcessRanks}: connects to the test JVM's control port and, for each run
 * request, runs the one test it names (by JUnit unique id, through the JUnit Platform launcher)
 * with a {@link Context} set, so that when the test reaches the requested {@code target.run} call
 * it joins that job as its rank and runs only that rank's body ({@link Context#run}). Earlier
 * {@code run} calls of the test give what they gave in the test JVM, without running anything.
 * It exits when the control connection or the test JVM goes away.
 */
public final class RankWorker {
    private static volatile Context context;

    private final DataInputStream in;
    private final DataOutputStream out;
    private volatile long joinedAt;
    private volatile long doneAt;

    private RankWorker(Socket s) throws IOException {
        in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
    }

    /**
     * Thrown out of {@code target.run} in a worker once its rank has finished and reported (however
     * it ended): the rest of the test method must not run here. Not an Exception, so ordinary
     * {@code catch} blocks let it through.
     */
    static final class Finished extends Error {
        private static final long serialVersionUID = 1L;

        Finished() {
            super("this worker's rank has finished and reported; the rest of the test runs in the test JVM", null,
                    false, false);
        }
    }

    /** @return the context of the run request being executed, or null (not a worker, or between requests) */
    static Context context() {
        return context;
    }

    /** @param args control port, slot, token, pid of the test JVM */
    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        int slot = Integer.parseInt(args[1]);
        String token = args[2];
        long parent = Long.parseLong(args[3]);
        Optional<ProcessHandle> p = ProcessHandle.of(parent);
        if (p.isEmpty()) {
            Runtime.getRuntime().halt(3);
        }
        p.get().onExit().thenRun(() -> Runtime.getRuntime().halt(3));
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setTcpNoDelay(true);
        RankWorker w = new RankWorker(s);
        w.out.writeInt(ControlWire.HELLO);
        w.out.writeInt(slot);
        ControlWire.writeString(w.out, token);
        w.out.writeLong(ProcessHandle.current().pid());
        w.out.flush();
        Launcher launcher = LauncherFactory.create();
        log("connected and launcher ready");
        try {
            while (true) {
                int type = w.in.readInt();
                if (type != ControlWire.RUN) {
                    w.in.readLong(); // a GO or ABORT for a run that has ended here: nothing to do
                    continue;
                }
                ControlWire.RunRequest request = ControlWire.RunRequest.read(w.in);
                long t0 = System.nanoTime();
                w.joinedAt = t0;
                w.doneAt = t0;
                w.execute(launcher, request);
                log(String.format("%s call #%d, rank %d of %d: %.0f ms (joined after %.0f ms, then %.0f ms)",
                        request.uniqueId(), request.call(), request.rank(), request.size(),
                        (System.nanoTime() - t0) / 1e6, (w.joinedAt - t0) / 1e6, (w.doneAt - w.joinedAt) / 1e6));
            }
        } catch (IOException e) {
            // the test JVM closed the connection or is gone: so is this worker, whatever threads are left
            log("control connection closed: " + e);
            Runtime.getRuntime().halt(0);
        }
    }

    /** A line in this worker's log (its standard output): when it is ready, and how long each request took. */
    private static void log(String what) {
        System.out.printf("%tT.%<tL +%d ms: %s%n", System.currentTimeMillis(),
                ManagementFactory.getRuntimeMXBean().getUptime(), what);
    }

    /** Runs the test of {@code request}; reports a failure if it ended without reaching the call. */
    private void execute(Launcher launcher, ControlWire.RunRequest request) throws IOException {
        Context ctx = new Context(this, request);
        Outcome outcome = new Outcome(request.uniqueId());
        context = ctx;
        try {
            launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectUniqueId(request.uniqueId()))
                    .build(), outcome);
        } catch (RuntimeException e) {
            outcome.failure = e;
        } finally {
            context = null;
        }
        if (!ctx.reported) {
            IllegalStateException e = new IllegalStateException("the worker for rank " + request.rank()
                    + (outcome.result == null ? " could not run " + request.uniqueId() + " (JUnit did not execute it)"
                    : " ran " + request.uniqueId() + ", which ended " + outcome.result.getStatus()
                    + " without reaching its target.run call #" + request.call())
                    + (outcome.failure == null ? "" : ": " + outcome.failure), outcome.failure);
            // not the test's doing as far as we know (a class path changed under this JVM, say): replace it
            ctx.send(ControlWire.RETIRE, null);
            ctx.report(ControlWire.JOIN_FAILED, ControlWire.Failure.of(e, Instant.now()));
        }
    }

    /** What JUnit said about the selected test. */
    private static final class Outcome implements TestExecutionListener {
        private final String uniqueId;
        private TestExecutionResult result;
        private Throwable failure;

        Outcome(String uniqueId) {
            this.uniqueId = uniqueId;
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult r) {
            if (id.getUniqueId().equals(uniqueId)) {
                result = r;
            }
            if (failure == null) {
                r.getThrowable().ifPresent(t -> failure = t); // the test's own comes first, then its containers'
            }
        }
    }

    /** One run request being executed: which call of the test is this worker's, and the job to join there. */
    static final class Context {
        private final RankWorker worker;
        private final ControlWire.RunRequest request;
        private int calls;
        private boolean reported;

        Context(RankWorker worker, ControlWire.RunRequest request) {
            this.worker = worker;
            this.request = request;
        }

        /**
         * {@code target.run} in a worker: an earlier call gives what it gave in the test JVM; the
         * requested call runs this worker's rank and ends the test here ({@link Finished}).
         */
        void run(Target target, int n, NicConfig nic, LocalRanks.RankBody body) {
            int call = calls++;
            if (reported) {
                throw new Finished();
            }
            if (call < request.call()) {
                request.earlier().get(call).replay();
                return;
            }
            String mismatch = !target.toString().equals(request.target()) ? "target " + target
                    : n != request.size() ? n + " ranks" : !nic.equals(request.nic()) ? "protocol settings " + nic : null;
            if (mismatch != null) {
                report(ControlWire.JOIN_FAILED, ControlWire.Failure.of(new IllegalStateException("the worker's run of "
                        + request.uniqueId() + " reached target.run call #" + call + " with " + mismatch
                        + ", not as in the test JVM (" + request.target() + ", " + request.size() + " ranks, "
                        + request.nic() + "): the test does not run the same way in every JVM"), Instant.now()));
                throw new Finished();
            }
            Job job = new Job(request.jobId(), n);
            job.attachment(NettyLaunch.KEY, NettyLaunch.class, () -> new NettyLaunch(request.secret(),
                    new RendezvousClient(request.rendezvous(), request.jobId(), request.secret()), NettyLaunch.LOOPBACK,
                    Duration.ofMillis(request.connectMillis())));
            Mpi mpi;
            try {
                mpi = Mpi.join(job, request.rank(), target.options(nic));
            } catch (Throwable t) {
                report(ControlWire.JOIN_FAILED, ControlWire.Failure.of(t, Instant.now()));
                throw new Finished();
            }
            ControlWire.Failure failure = null;
            try {
                worker.joinedAt = System.nanoTime();
                send(ControlWire.JOINED, null);
                if (awaitCommand() != ControlWire.GO) {
                    mpi.abort(); // a peer could not start: leave without running
                } else {
                    try {
                        body.run(mpi);
                    } catch (Throwable t) {
                        failure = ControlWire.Failure.of(t, Instant.now());
                        mpi.abort();
                    }
                    if (failure == null) {
                        try {
                            mpi.close();
                        } catch (Throwable t) {
                            failure = ControlWire.Failure.of(t, Instant.now());
                        }
                    }
                }
            } catch (IOException e) {
                mpi.abort();
                Runtime.getRuntime().halt(4); // the test JVM is gone
            }
            worker.doneAt = System.nanoTime();
            report(ControlWire.RESULT, failure);
            throw new Finished();
        }

        /** Sends the final message of this run (JOIN_FAILED or RESULT); the worker halts if it cannot. */
        private void report(int type, ControlWire.Failure failure) {
            reported = true;
            try {
                send(type, failure);
            } catch (IOException e) {
                Runtime.getRuntime().halt(4);
            }
        }

        private void send(int type, ControlWire.Failure failure) throws IOException {
            DataOutputStream out = worker.out;
            synchronized (out) {
                out.writeInt(type);
                out.writeLong(request.run());
                if (type == ControlWire.RESULT) {
                    out.writeBoolean(failure != null);
                }
                if (failure != null) {
                    failure.write(out);
                }
                out.flush();
            }
        }

        /** @return GO or ABORT for this run */
        private int awaitCommand() throws IOException {
            while (true) {
                int type = worker.in.readInt();
                long run = worker.in.readLong();
                if (run == request.run() && (type == ControlWire.GO || type == ControlWire.ABORT)) {
                    return type;
                }
            }
        }
    }
}
