package org.jspin.conformance;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The worker JVMs of {@link ProcessRanks}: long-lived, reused by every test, started when a job
 * first needs that many (slot k runs rank k+1), replaced when one has died or was killed, and all
 * killed when this JVM exits. Each is {@code java} of this JVM with its class path, its module and
 * stack flags and its {@code jspin.*} system properties, running {@link RankWorker}; it connects
 * back to a loopback control port of this JVM. Its output goes to
 * {@code target/process-workers/rank-<k+1>.log}.
 */
final class Workers {
    /** Flags of this JVM a worker gets too (as {@code -flag=value} or {@code -flag value}). */
    private static final List<String> INHERITED = List.of("--add-modules", "--add-exports", "--add-opens",
            "--add-reads", "--enable-native-access", "--sun-misc-unsafe-memory-access", "--enable-preview", "-Xss",
            "-ea", "-enableassertions", "-da", "-disableassertions", "-XX:MaxDirectMemorySize");
    /**
     * Flags of the worker JVMs: a serial collector (no GC threads competing for a small machine's
     * cores), no perf-data file. Measured over the process target on 2 cores (user+sys CPU of
     * {@code -Djspin.conformance.processes=only}): these 122 s; with {@code -XX:TieredStopAtLevel=1}
     * too 136 s (C1 code is slow for the long-lived workers); neither 137 s.
     */
    private static final List<String> WORKER_FLAGS = List.of("-Xmx1g", "-XX:+UseSerialGC", "-XX:-UsePerfData");
    /** Replaces {@link #WORKER_FLAGS} (space-separated). */
    static final String FLAGS_PROPERTY = "jspin.conformance.workerFlags";
    /** How long a worker may take to start and connect. */
    private static final long START_NANOS = TimeUnit.SECONDS.toNanos(30);

    private static final List<Worker> SLOTS = new CopyOnWriteArrayList<>();
    private static ServerSocket control;
    private static List<String> command;
    private static Path logs;
    /** Slots whose log has been started by this JVM (a replacement worker appends to it). */
    private static final Set<Integer> LOGGED = new HashSet<>();

    private Workers() {
    }

    /** An event a worker's reader saw: a message of the run {@code run}, or the worker gone ({@link #DIED}). */
    record Event(int type, long run, ControlWire.Failure failure, Instant at) {
        static final int DIED = -1;
    }

    /** One worker JVM and its control connection. */
    static final class Worker {
        final int slot;
        final Process process;
        final Path log;
        private final String token;
        private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
        private Socket socket;
        private DataInputStream in;
        private DataOutputStream out;
        private volatile boolean dead;
        /** The last run whose final message (JOIN_FAILED or RESULT) the reader has seen. */
        private volatile long finished = -1;
        private volatile boolean killed;
        private volatile boolean retired;
        private volatile Consumer<Event> listener;

        Worker(int slot, Process process, Path log, String token) {
            this.slot = slot;
            this.process = process;
            this.log = log;
            this.token = token;
        }

        /** Sets what is told of every event as the reader sees it (null: nobody). */
        void listener(Consumer<Event> l) {
            listener = l;
        }

        private void publish(Event e) {
            events.add(e);
            Consumer<Event> l = listener;
            if (l != null) {
                l.accept(e);
            }
        }

        boolean usable() {
            return !dead && !killed && !retired && process.isAlive();
        }

        /** @return whether the worker has reported the end of run {@code run} (or is gone) */
        boolean finished(long run) {
            return finished == run || dead;
        }

        /** @return whether {@link #kill} was called (a timeout), as opposed to the worker dying on its own */
        boolean killed() {
            return killed;
        }

        void send(int type, long run, ControlWire.RunRequest request) {
            try {
                synchronized (this) {
                    out.writeInt(type);
                    if (request != null) {
                        request.write(out);
                    } else {
                        out.writeLong(run);
                    }
                    out.flush();
                }
            } catch (IOException e) {
                // the reader sees the connection gone too and reports the worker dead
                dead = true;
                events.add(new Event(Event.DIED, -1, null, Instant.now()));
            }
        }

        /** @return the next event of run {@code run} (or the worker's death), or null at {@code deadline} */
        Event poll(long run, long deadline) {
            try {
                while (true) {
                    long left = deadline - System.nanoTime();
                    Event e = left > 0 ? events.poll(left, TimeUnit.NANOSECONDS) : events.poll();
                    if (e == null || e.type == Event.DIED || e.run == run) {
                        return e;
                    }
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return null;
            }
        }

        /** Kills the worker (it is replaced when next needed). */
        void kill() {
            killed = true;
            process.destroyForcibly();
            closeQuietly(socket);
        }

        /** @return what to tell about a worker that is gone: its exit code and where its output is */
        String describeDeath() {
            String code;
            try {
                code = process.waitFor(2, TimeUnit.SECONDS) ? "exit code " + process.exitValue() : "still exiting";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                code = "exit code unknown";
            }
            return "its worker JVM (pid " + process.pid() + ") " + (killed ? "was killed" : "died") + " (" + code
                    + "); its output is in " + log;
        }

        private void attach(Socket s, DataInputStream i) throws IOException {
            socket = s;
            in = i;
            out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            Thread.ofPlatform().daemon().name("jspin-worker-reader-" + (slot + 1)).start(this::read);
        }

        private void read() {
            try {
                while (true) {
                    int type = in.readInt();
                    long run = in.readLong();
                    if (type == ControlWire.RETIRE) {
                        retired = true; // replaced when next needed
                        continue;
                    }
                    ControlWire.Failure f = null;
                    if (type == ControlWire.JOIN_FAILED || type == ControlWire.RESULT && in.readBoolean()) {
                        f = ControlWire.Failure.read(in);
                    }
                    if (type == ControlWire.JOIN_FAILED || type == ControlWire.RESULT) {
                        finished = run;
                    }
                    publish(new Event(type, run, f, Instant.now()));
                }
            } catch (IOException e) {
                dead = true;
                publish(new Event(Event.DIED, -1, null, Instant.now()));
            }
        }
    }

    /**
     * @return workers for ranks 1..k, started (or restarted) as needed
     * @throws MpiException ERR_OTHER if one cannot be started before {@code deadline}
     */
    static synchronized List<Worker> acquire(int k, long deadline) {
        if (k == 0) {
            return List.of();
        }
        init();
        Map<String, Worker> starting = new TreeMap<>();
        while (SLOTS.size() < k) {
            SLOTS.add(null);
        }
        for (int slot = 0; slot < k; slot++) {
            Worker w = SLOTS.get(slot);
            if (w == null || !w.usable()) {
                if (w != null) {
                    w.kill();
                }
                w = spawn(slot);
                SLOTS.set(slot, w);
                starting.put(w.token, w);
            }
        }
        long until = Math.min(deadline, System.nanoTime() + START_NANOS);
        while (!starting.isEmpty()) {
            for (Worker w : starting.values()) {
                if (!w.process.isAlive()) {
                    SLOTS.set(w.slot, null);
                    throw new MpiException(ErrorClass.ERR_OTHER, "rank " + (w.slot + 1) + " failed to start: "
                            + w.describeDeath());
                }
            }
            if (System.nanoTime() > until) {
                starting.values().forEach(Worker::kill);
                throw new MpiException(ErrorClass.ERR_OTHER, "worker JVMs for ranks "
                        + starting.values().stream().map(w -> w.slot + 1).toList() + " did not connect within "
                        + TimeUnit.NANOSECONDS.toSeconds(START_NANOS) + " s; their output is in " + logs);
            }
            try {
                Socket s = control.accept();
                try {
                    s.setTcpNoDelay(true);
                    s.setSoTimeout(10_000);
                    DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
                    if (in.readInt() != ControlWire.HELLO) {
                        throw new IOException("expected HELLO");
                    }
                    int slot = in.readInt();
                    Worker w = starting.remove(ControlWire.readString(in));
                    in.readLong(); // pid
                    if (w == null || w.slot != slot) {
                        throw new IOException("a HELLO from no worker being started");
                    }
                    s.setSoTimeout(0);
                    w.attach(s, in);
                } catch (IOException e) {
                    closeQuietly(s);
                }
            } catch (SocketTimeoutException e) {
                // check the starting workers again
            } catch (IOException e) {
                throw new MpiException(ErrorClass.ERR_OTHER, "the control port of the worker JVMs failed: " + e, e);
            }
        }
        return List.copyOf(SLOTS.subList(0, k));
    }

    private static Worker spawn(int slot) {
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
        List<String> cmd = new ArrayList<>(command);
        cmd.add(Integer.toString(control.getLocalPort()));
        cmd.add(Integer.toString(slot));
        cmd.add(token);
        cmd.add(Long.toString(ProcessHandle.current().pid()));
        Path log = logs.resolve("rank-" + (slot + 1) + ".log");
        try {
            Files.writeString(log, "---- worker for rank " + (slot + 1) + " started " + Instant.now() + ": "
                    + String.join(" ", cmd) + System.lineSeparator(), StandardOpenOption.CREATE,
                    LOGGED.add(slot) ? StandardOpenOption.TRUNCATE_EXISTING
                            : StandardOpenOption.APPEND);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.PIPE).start();
            return new Worker(slot, p, log, token);
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + (slot + 1) + " failed to start: cannot start "
                    + cmd.getFirst() + ": " + e, e);
        }
    }

    private static void init() {
        if (control != null) {
            return;
        }
        try {
            ServerSocket ss = new ServerSocket();
            ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
            ss.setSoTimeout(100);
            logs = targetDirectory().resolve("process-workers");
            Files.createDirectories(logs);
            command = command();
            control = ss;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up the worker JVMs", e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Worker w : SLOTS) {
                if (w != null) {
                    w.process.destroyForcibly();
                }
            }
        }, "jspin-worker-reaper"));
    }

    /** @return {@code java}, the flags of this JVM that matter, its class path and {@code jspin.*} properties, the main class */
    private static List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String flags = System.getProperty(FLAGS_PROPERTY);
        cmd.addAll(flags == null ? WORKER_FLAGS : List.of(flags.trim().split("\\s+")).stream().filter(f -> !f.isEmpty()).toList());
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            for (String flag : INHERITED) {
                if (a.equals(flag) && flag.startsWith("--") && i + 1 < args.size()) {
                    cmd.add(a);
                    cmd.add(args.get(++i));
                    break;
                }
                if (a.equals(flag) || a.startsWith(flag + "=") || a.startsWith(flag + ":")
                        || flag.equals("-Xss") && a.startsWith(flag)) {
                    cmd.add(a);
                    break;
                }
            }
        }
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("jspin.") && !k.equals(FLAGS_PROPERTY)).sorted()
                .forEach(k -> cmd.add("-D" + k + "=" + System.getProperty(k)));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(RankWorker.class.getName());
        return cmd;
    }

    /** @return the {@code target} directory the test classes were compiled into */
    private static Path targetDirectory() {
        try {
            Path classes = Path.of(Workers.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path target = classes.getParent();
            return target != null && target.getFileName() != null && target.getFileName().toString().equals("target")
                    ? target : Path.of(System.getProperty("java.io.tmpdir"));
        } catch (URISyntaxException | RuntimeException e) {
            return Path.of(System.getProperty("java.io.tmpdir"));
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort
            }
        }
    }
}
