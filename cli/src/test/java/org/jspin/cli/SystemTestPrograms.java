package org.jspin.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspin.datatype.Datatype;
import org.jspin.error.MpiException;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;

/**
 * Small rank programs the system tests run under {@code jspin run} (as main classes, through
 * {@code jspin exec}). Each prints {@code pid=N} first thing, and {@code child=N} for any process
 * it starts, so the tests can check that nothing outlives the job.
 */
public final class SystemTestPrograms {
    static final int TAG = 7;

    private SystemTestPrograms() {
    }

    static void announcePid() {
        System.out.println("pid=" + ProcessHandle.current().pid());
    }

    /** Starts a long {@code sleep} below this rank and announces it. */
    static void startChild() {
        try {
            Process p = new ProcessBuilder("sleep", "300").start();
            System.out.println("child=" + p.pid());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each rank sends a token to the next one round the ring and prints what it got from the previous one. */
    public static final class Ring {
        private Ring() {
        }

        /** @return the token rank {@code rank} sends */
        static long token(int rank) {
            return 7_000_003L * (rank + 1) + 11;
        }

        public static void main(String[] args) {
            announcePid();
            try (Mpi mpi = Mpi.init()) {
                Comm w = mpi.world();
                int r = w.rank();
                int n = w.size();
                long[] mine = {token(r)};
                long[] got = {-1};
                Request recv = w.irecv(MemorySegment.ofArray(got), 1, Datatype.LONG, (r + n - 1) % n, TAG);
                Request send = w.isend(MemorySegment.ofArray(mine), 1, Datatype.LONG, (r + 1) % n, TAG);
                Status s = recv.waitFor();
                send.waitFor();
                System.out.println("rank " + r + " of " + n + " received " + got[0] + " from rank " + s.source());
            }
        }
    }

    /**
     * A slow rank: rank 1 sleeps {@code args[0]} ms before it receives anything, while rank 0 has
     * already sent it an eager message and a rendezvous one and waits; then they swap roles. Both
     * print {@code slow rank=R ok} when every byte arrived, and nobody may take the silence for a failure.
     */
    public static final class SlowRank {
        private SlowRank() {
        }

        public static void main(String[] args) throws InterruptedException {
            long nap = Long.parseLong(args[0]);
            try (Mpi mpi = Mpi.init()) {
                Comm w = mpi.world();
                int r = w.rank();
                byte[] small = new byte[100];
                byte[] large = new byte[1 << 20];
                for (int round = 0; round < 2; round++) {
                    boolean sender = r == round;
                    if (sender) {
                        java.util.Arrays.fill(small, (byte) (round + 1));
                        java.util.Arrays.fill(large, (byte) (round + 2));
                        Request a = w.isend(MemorySegment.ofArray(small), small.length, Datatype.BYTE, 1 - r, TAG);
                        Request b = w.isend(MemorySegment.ofArray(large), large.length, Datatype.BYTE, 1 - r, TAG);
                        Request.waitAll(a, b);
                    } else {
                        Thread.sleep(nap); // busy elsewhere: the peer must simply wait
                        w.recv(MemorySegment.ofArray(small), small.length, Datatype.BYTE, 1 - r, TAG);
                        w.recv(MemorySegment.ofArray(large), large.length, Datatype.BYTE, 1 - r, TAG);
                        for (byte x : small) {
                            if (x != round + 1) {
                                throw new IllegalStateException("small message wrong in round " + round);
                            }
                        }
                        for (byte x : large) {
                            if (x != round + 2) {
                                throw new IllegalStateException("large message wrong in round " + round);
                            }
                        }
                    }
                    w.barrier();
                }
                System.out.println("slow rank=" + r + " ok");
            }
        }
    }

    /** Each rank prints the CPUs its process may run on, as the kernel says ({@code Cpus_allowed_list}). */
    public static final class Affinity {
        private Affinity() {
        }

        public static void main(String[] args) throws java.io.IOException {
            String cpus = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("?");
            try (Mpi mpi = Mpi.init()) {
                mpi.world().barrier();
                System.out.println("rank " + mpi.world().rank() + " cpus " + cpus);
            }
        }
    }

    /**
     * Rank 0 starts a child process; after a barrier rank 2 exits with code 3 while the others
     * block in a receive from it.
     */
    public static final class RankTwoExits {
        private RankTwoExits() {
        }

        public static void main(String[] args) {
            announcePid();
            Mpi mpi = Mpi.init();
            Comm w = mpi.world();
            if (w.rank() == 0) {
                startChild();
            }
            w.barrier();
            if (w.rank() == 2) {
                System.out.println("exiting with 3");
                System.out.flush();
                System.exit(3);
            }
            System.out.println("waiting for rank 2");
            w.recv(MemorySegment.ofArray(new long[1]), 1, Datatype.LONG, 2, TAG);
            System.out.println("received from rank 2, which should have exited");
            mpi.close();
        }
    }

    /**
     * Rank 1 streams 4 MiB messages to rank 0 without end (windows of {@value #WINDOW}
     * nonblocking sends), so whenever it dies a transfer is under way. Rank 0 keeps
     * {@value #WINDOW} receives posted, checks the first window's bytes and prints
     * {@code flowing bytes=N}; when its pending receives fail it prints
     * {@code failed class=<error class> at=<epoch ms> received=<bytes> reason=...} and writes the
     * same line to the file named by its first argument; then, if the second argument is
     * {@code exit}, it exits 7 at once as a real program would, otherwise it waits until the
     * launcher stops it (so the launcher sees rank 1's death before any exit of rank 0).
     *
     * <p>Once rank 1 dies {@code jspin run} stops the other ranks at once (SIGTERM), which races
     * rank 0's report; a shutdown hook of rank 0 holds the JVM until the report is written, which
     * leaves rank 0 the launcher's grace period (then SIGKILL) to notice the failure by itself.
     */
    public static final class StreamUntilKilled {
        static final int CHUNK = 4 << 20;
        static final int WINDOW = 4;

        private StreamUntilKilled() {
        }

        static byte pattern(int i) {
            return (byte) (i * 31 + 7);
        }

        public static void main(String[] args) {
            announcePid();
            Mpi mpi = Mpi.init();
            Comm w = mpi.world();
            if (w.rank() == 1) {
                byte[] data = new byte[CHUNK];
                for (int i = 0; i < CHUNK; i++) {
                    data[i] = pattern(i);
                }
                MemorySegment seg = MemorySegment.ofArray(data);
                System.out.println("streaming");
                while (true) {
                    Request[] rs = new Request[WINDOW];
                    for (int k = 0; k < WINDOW; k++) {
                        rs[k] = w.isend(seg, CHUNK, Datatype.BYTE, 0, TAG);
                    }
                    Request.waitAll(rs);
                }
            }
            CountDownLatch reported = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    reported.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            byte[][] bufs = new byte[WINDOW][CHUNK];
            long received = 0;
            try {
                while (true) {
                    Request[] rs = new Request[WINDOW];
                    for (int k = 0; k < WINDOW; k++) {
                        rs[k] = w.irecv(MemorySegment.ofArray(bufs[k]), CHUNK, Datatype.BYTE, 1, TAG);
                    }
                    Request.waitAll(rs);
                    if (received == 0) {
                        for (byte[] b : bufs) {
                            for (int i = 0; i < CHUNK; i++) {
                                if (b[i] != pattern(i)) {
                                    System.out.println("corrupt byte " + i + ": " + b[i]);
                                    System.exit(9);
                                }
                            }
                        }
                        System.out.println("flowing bytes=" + (long) WINDOW * CHUNK);
                    }
                    received += (long) WINDOW * CHUNK;
                }
            } catch (MpiException e) {
                long at = System.currentTimeMillis();
                String report = "failed class=" + e.errorClass() + " at=" + at + " received=" + received
                        + " reason=" + e.getMessage();
                System.out.println(report);
                try {
                    Files.writeString(Path.of(args[0]), report + "\n");
                } catch (IOException io) {
                    throw new UncheckedIOException(io);
                } finally {
                    reported.countDown();
                }
                mpi.abort();
                if (args.length > 1 && args[1].equals("exit")) {
                    System.exit(7);
                }
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException ie) {
                    System.exit(8);
                }
            }
        }
    }

    /** Every rank starts a child process, then blocks for ever: rank 0 in a receive nobody sends, the others on a latch. */
    public static final class Hang {
        private Hang() {
        }

        public static void main(String[] args) throws InterruptedException {
            announcePid();
            startChild();
            Mpi mpi = Mpi.init();
            Comm w = mpi.world();
            System.out.println("blocking");
            if (w.rank() == 0) {
                w.recv(MemorySegment.ofArray(new long[1]), 1, Datatype.LONG, 1, TAG + 1);
            } else {
                new CountDownLatch(1).await();
            }
            System.out.println("unblocked, which should not happen");
        }
    }

    /**
     * Rank 0 registers a shutdown hook that prints {@code last words} and blocks on a latch; after
     * a barrier rank 1 exits with code 3, so {@code jspin run} stops rank 0 (SIGTERM), whose hook
     * then speaks.
     */
    public static final class LastWords {
        private LastWords() {
        }

        public static void main(String[] args) throws InterruptedException {
            announcePid();
            Mpi mpi = Mpi.init();
            Comm w = mpi.world();
            if (w.rank() == 0) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    System.out.println("last words");
                    System.out.flush();
                }));
            }
            w.barrier();
            if (w.rank() == 1) {
                System.exit(3);
            }
            new CountDownLatch(1).await();
        }
    }

    /**
     * Load between ranks 0 and 1: {@code args[0]} messages drawn from 256 random shapes (sizes 1 B
     * to 1 MiB, spread evenly over the powers of two; bytes, a vector of doubles, an indexed type),
     * then {@code args[2]} MiB in 1 MiB messages; the seed is {@code args[1]}. The receiver
     * packs what it got and compares it with the packed pattern the sender started from, message
     * by message. At the end each rank prints
     * {@code load rank=R messages=N bytes=B mismatches=M heapPeakMiB=H threadsPeak=T directPeakMiB=D rssPeakMiB=S}:
     * D is the most direct buffer memory seen in use at once (the JDK's direct buffers, Netty's
     * included, plus any Netty allocates past the JDK's count), sampled every 20 ms; S the process's
     * peak resident size (VmHWM), which covers everything else outside the heap (native segments,
     * code, thread stacks).
     */
    public static final class RandomTraffic {
        /** Distinct random shapes per run. */
        private static final int PALETTE = 256;

        private RandomTraffic() {
        }

        /** The 8 bytes at {@code offset} (a multiple of 8) of message {@code i}'s typed buffer. */
        static long pattern(long seed, int i, long offset) {
            long x = (seed * 0x9E3779B97F4A7C15L) ^ (i * 0xC2B2AE3D27D4EB4FL) ^ offset;
            x ^= x >>> 29;
            x *= 0xBF58476D1CE4E5B9L;
            return x ^ (x >>> 32);
        }

        /** Fills the first {@code span} bytes of {@code typed} with message {@code i}'s pattern. */
        static void fill(MemorySegment typed, long span, long seed, int i) {
            long words = (span + 7) / 8; // the buffer is larger than any span: the last word fits
            for (long k = 0; k < words; k++) {
                typed.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 8 * k, pattern(seed, i, 8 * k));
            }
        }

        /** Message {@code i}'s type and count, from {@code rnd}; payload at most 1 MiB. */
        static Object[] shape(Random rnd) {
            int payload = 1 << rnd.nextInt(21); // 1 B .. 1 MiB
            switch (rnd.nextInt(3)) {
                case 0:
                    return new Object[] {Datatype.BYTE, (long) payload};
                case 1: {
                    int block = 1 + rnd.nextInt(8); // doubles per block
                    long doubles = Math.max(1, payload / 8);
                    long blocks = Math.max(1, doubles / block);
                    return new Object[] {Datatype.vector(blocks, block, 2L * block, Datatype.DOUBLE).commit(), 1L};
                }
                default: {
                    int n = 1 + rnd.nextInt(16);
                    long[] lens = new long[n];
                    long[] disps = new long[n];
                    long at = 0;
                    for (int k = 0; k < n; k++) {
                        lens[k] = 1 + rnd.nextInt(32);
                        disps[k] = at + rnd.nextInt(8);
                        at = disps[k] + lens[k];
                    }
                    Datatype t = Datatype.indexed(lens, disps, Datatype.INT).commit();
                    long count = Math.max(1, payload / Math.max(1, t.size()));
                    return new Object[] {t, count};
                }
            }
        }

        public static void main(String[] args) throws InterruptedException {
            int messages = Integer.parseInt(args[0]);
            long seed = Long.parseLong(args[1]);
            int bulkMiB = Integer.parseInt(args[2]);
            OffHeapPeak offHeap = new OffHeapPeak();
            try (Mpi mpi = Mpi.init(); java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
                Comm w = mpi.world();
                int r = w.rank();
                MemorySegment typed = arena.allocate(8L << 20, 64);
                MemorySegment packed = arena.allocate(4L << 20, 64);
                MemorySegment expected = arena.allocate(4L << 20, 64);
                Random rnd = new Random(seed);
                // a palette of random shapes, committed once (each distinct shape compiles its own
                // kernel class at commit, which would otherwise dominate the run), drawn at random
                Object[][] palette = new Object[PALETTE][];
                for (int k = 0; k < PALETTE; k++) {
                    palette[k] = shape(rnd);
                }
                long bytes = 0;
                int mismatches = 0;
                for (int i = 0; i < messages + bulkMiB; i++) {
                    Datatype t = Datatype.BYTE;
                    long count = 1 << 20;
                    if (i < messages) {
                        Object[] sh = palette[rnd.nextInt(PALETTE)];
                        t = (Datatype) sh[0];
                        count = (Long) sh[1];
                    }
                    long span = (count - 1) * t.extent() + t.trueUb();
                    if (r == 0) {
                        fill(typed, span, seed, i);
                        w.send(typed, count, t, 1, TAG);
                    } else if (r == 1) {
                        typed.asSlice(0, span).fill((byte) 0);
                        w.recv(typed, count, t, 0, TAG);
                        long n = t.pack(count, typed, packed);
                        fill(typed, span, seed, i); // the sender's buffer, rebuilt here
                        t.pack(count, typed, expected);
                        if (packed.asSlice(0, n).mismatch(expected.asSlice(0, n)) >= 0) {
                            mismatches++;
                            System.out.println("mismatch in message " + i + " (" + count + " x " + t + ", seed " + seed + ")");
                        }
                        bytes += n;
                    }
                }
                w.barrier();
                long heapPeak = 0;
                for (java.lang.management.MemoryPoolMXBean p : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
                    if (p.getType() == java.lang.management.MemoryType.HEAP) {
                        heapPeak += p.getPeakUsage().getUsed();
                    }
                }
                int threads = java.lang.management.ManagementFactory.getThreadMXBean().getPeakThreadCount();
                System.out.println("load rank=" + r + " messages=" + (messages + bulkMiB) + " bytes=" + bytes
                        + " mismatches=" + mismatches + " heapPeakMiB=" + (heapPeak >> 20) + " threadsPeak=" + threads
                        + " directPeakMiB=" + (offHeap.stop() >> 20) + " rssPeakMiB=" + (OffHeapPeak.residentPeak() >> 20));
            }
        }
    }

    /**
     * Samples direct buffer memory while a program runs: the JDK's direct buffer pool plus Netty's
     * direct buffers that bypass it (native {@code MemorySegment}s are in neither: the resident peak
     * covers them).
     */
    static final class OffHeapPeak {
        private final java.util.concurrent.atomic.AtomicLong peak = new java.util.concurrent.atomic.AtomicLong();
        private final Thread sampler;
        private volatile boolean running = true;

        OffHeapPeak() {
            sampler = Thread.ofPlatform().daemon().name("off-heap-sampler").start(() -> {
                while (running) {
                    peak.accumulateAndGet(now(), Math::max);
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        static long now() {
            long used = 0;
            for (java.lang.management.BufferPoolMXBean b
                    : java.lang.management.ManagementFactory.getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class)) {
                if (b.getName().equals("direct")) {
                    used += b.getMemoryUsed();
                }
            }
            long netty = io.netty.util.internal.PlatformDependent.usedDirectMemory(); // -1 when it uses the JDK's
            return used + Math.max(0, netty);
        }

        /** @return the peak, sampled once more now */
        long stop() throws InterruptedException {
            running = false;
            sampler.interrupt();
            sampler.join();
            return peak.accumulateAndGet(now(), Math::max);
        }

        /** @return this process's peak resident set (VmHWM), or -1 where /proc does not say */
        static long residentPeak() {
            try {
                for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmHWM:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
                    }
                }
            } catch (IOException | NumberFormatException e) {
                return -1;
            }
            return -1;
        }
    }
}
